/**
 * The web console in Chromium against a real cluster: signing in and out (the login form, a
 * pasted token, an expired token), the API token dialog, and projects (create, rename,
 * describe, properties, move, freeze, trash and restore, paging, sorting and filters).
 */
import type { Page } from 'playwright-core';
import { useDeployment } from '../harness/deployment';
import {
  checkScreen,
  describeInBrowser,
  useConsoleBrowser,
  type ConsoleBrowser,
} from '../harness/console-browser';
import { makeUser, type TestUser } from '../harness/users';

jest.setTimeout(60_000);

const LOGIN = { user: 'alice', email: 'alice@example.com', password: 'alice-password-1' };

describeInBrowser('the web console: sign in, projects', () => {
  const d = useDeployment({
    configure: (_id, section) => {
      section['Login'] = {
        Test: {
          Enable: true,
          Users: { [LOGIN.user]: { Email: LOGIN.email, Password: LOGIN.password } },
        },
      };
      section['Users'] = { NewUsersAreActive: true };
      // The paging test makes its 53 items at once with one token: above the default limit of
      // requests in progress per token (API.MaxConcurrentRequestsPerToken, overload.test.ts).
      section['API'] = { MaxConcurrentRequestsPerToken: 100 };
    },
  });
  let page: Page;
  const session = useConsoleBrowser(() => d.current.url);
  let b: ConsoleBrowser;
  beforeAll(() => ({ browser: b, page } = session.current));

  it('signs in with the login form and shows who you are', async () => {
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    expect(await checkScreen(page, 'sign-in')).toEqual([]);
    await page.getByLabel('Username or email').fill(LOGIN.user);
    await page.getByRole('textbox', { name: 'Password' }).fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong username or password.').waitFor();
    await page.getByRole('textbox', { name: 'Password' }).fill(LOGIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.getByRole('button', { name: LOGIN.user }).click();
    await page.getByText(LOGIN.email).waitFor();
    await page.getByRole('menuitem', { name: 'API token' }).click();
    const lines = await page.getByTestId('token-lines').textContent();
    expect(lines).toContain(`export SVC_API_HOST=${new URL(d.current.url).host}\n`);
    expect(lines).toContain('export SVC_API_SCHEME=http\n');
    const token = /SVC_API_TOKEN=(\S+)/.exec(lines ?? '')![1]!;
    expect(token).toBe(await ownToken());
    const me = await d.current.client(token).api.users.current();
    expect(me.email).toBe(LOGIN.email);
    expect(await checkScreen(page, 'api-token-dialog')).toEqual([]);
    await page.keyboard.press('Escape');
  });

  const dialog = () => page.getByRole('dialog');
  const action = async (name: string) => {
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name }).click();
  };
  const newProject = async (name: string) => {
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'Project' }).click();
    await dialog().getByLabel('Name').fill(name);
    await dialog().getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    return /projects\/([a-z0-9-]+)/.exec(page.url())![1]!;
  };
  let project: string;
  let archive: string;

  it('creates a project and edits it: rename, description, properties', async () => {
    project = await newProject('Genome runs');
    await action('Rename');
    await dialog().getByLabel('Name').fill('Genome runs 2026');
    await dialog().getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Genome runs 2026', level: 1 }).waitFor();
    await action('Edit description');
    await dialog().getByLabel('Description').fill('Sequencing of the spring samples');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.getByText('Sequencing of the spring samples').waitFor();
    await action('Edit properties');
    await dialog().getByRole('button', { name: 'Add property' }).click();
    await dialog().getByLabel('Key 1').fill('species');
    await dialog().getByLabel('Value 1').fill('mouse');
    await dialog().getByRole('button', { name: 'Save properties' }).click();
    await page.getByText('species: mouse').waitFor();
    const stored = await d.current.root.api.groups.get({ uuid: project });
    expect([stored.name, stored.description, stored.properties]).toEqual([
      'Genome runs 2026',
      'Sequencing of the spring samples',
      { species: 'mouse' },
    ]);
    expect(await checkScreen(page, 'project')).toEqual([]);
  });

  it('moves it into another project, shown in the breadcrumbs', async () => {
    await page.getByRole('link', { name: 'Home' }).first().click();
    archive = await newProject('Archive');
    await page.goto(`/projects/${project}`);
    await action('Move to…');
    await dialog().getByLabel('Destination project').fill('Arch');
    await page.getByRole('option', { name: 'Archive' }).click();
    await dialog().getByRole('button', { name: 'Move' }).click();
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await crumbs.getByRole('link', { name: 'Archive' }).waitFor();
    expect(await crumbs.getByRole('link').allTextContents()).toEqual(['Home', 'Archive']);
    expect((await d.current.root.api.groups.get({ uuid: project })).owner_uuid).toBe(archive);
  });

  it('freezes and unfreezes it', async () => {
    await action('Freeze');
    await dialog().getByRole('button', { name: 'Freeze' }).click();
    await page.getByText('Frozen', { exact: true }).waitFor();
    const frozen = await d.current.root.api.groups.get({ uuid: project });
    expect(frozen.frozen_by_uuid).toMatch(/-tpzed-/);
    await action('Unfreeze');
    await dialog().getByRole('button', { name: 'Unfreeze' }).click();
    await page.getByText('Frozen', { exact: true }).waitFor({ state: 'detached' });
    expect((await d.current.root.api.groups.get({ uuid: project })).frozen_by_uuid).toBeNull();
  });

  it('trashes it and restores it from the trash', async () => {
    await action('Move to trash');
    await dialog().getByRole('button', { name: 'Move to trash' }).click();
    await page.waitForURL('**/trash');
    const row = page.getByRole('row', { name: /Genome runs 2026/ });
    await row.waitFor();
    expect(await checkScreen(page, 'trash')).toEqual([]);
    const trashed = await d.current.root.api.groups.get({ uuid: project, include_trash: true });
    expect(trashed.is_trashed).toBe(true);
    await row.getByRole('button', { name: /Restore/ }).click();
    await row.waitFor({ state: 'detached' });
    expect((await d.current.root.api.groups.get({ uuid: project })).is_trashed).toBe(false);
  });

  it('pages, sorts and filters a project of many items by name and type', async () => {
    const me = await d.current.client(await ownToken()).api.users.current();
    const many = await d.current.root.api.groups.create({
      attributes: { name: 'Many', group_class: 'project', owner_uuid: me.uuid },
    });
    await Promise.all(
      Array.from({ length: 53 }, (_, i) =>
        d.current.root.api.collections.create({
          attributes: { name: `item-${String(i).padStart(2, '0')}`, owner_uuid: many.uuid },
        }),
      ),
    );
    for (const name of ['sub-b', 'sub-a'])
      await d.current.root.api.groups.create({
        attributes: { name, group_class: 'project', owner_uuid: many.uuid },
      });
    await page.goto(`/projects/${many.uuid}`);
    const table = page.getByRole('table', { name: 'Contents' });
    const names = () => table.locator('tbody tr td:first-child').allTextContents();
    await page.getByTestId('items-available').getByText('55 items').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(50);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await table.getByText('item-00').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(5);

    await table.getByRole('button', { name: 'Name' }).click();
    await table.getByText('sub-a').waitFor();
    expect((await names()).slice(0, 4)).toEqual(['sub-a', 'sub-b', 'item-00', 'item-01']);

    await page.getByLabel('Filter by name').fill('item-4');
    await page.getByTestId('items-available').getByText('10 items').waitFor();
    expect(await names()).toEqual(Array.from({ length: 10 }, (_, i) => `item-4${i}`));
    await page.getByLabel('Filter by name').fill('');
    await page.getByRole('checkbox', { name: 'Projects' }).check();
    await page.getByTestId('items-available').getByText('2 items').waitFor();
    expect(await names()).toEqual(['sub-a', 'sub-b']);
    expect(await checkScreen(page, 'project-many')).toEqual([]);
  });

  /** The token the console of this test signed in with. */
  const ownToken = async () =>
    await page.evaluate<string>("localStorage.getItem('svc.console.token')");

  it('signs in with a pasted token, ends an expired session with a message, signs out', async () => {
    const bob: TestUser = await makeUser(d.current);
    const second = await b.open(d.current.url);
    const p2 = second.page;
    await p2.goto('/sign-in');
    await p2.getByRole('button', { name: 'Paste an API token' }).click();
    await p2.getByLabel('API token').fill('v2/home1-gj3su-000000000000001/nosuchsecret');
    await p2.getByRole('button', { name: 'Use this token' }).click();
    await p2.getByText('This token is not valid').waitFor();
    await p2.getByLabel('API token').fill(bob.token);
    await p2.getByRole('button', { name: 'Use this token' }).click();
    await p2.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await d.current.root.api.apiClientAuthorizations.update({
      uuid: bob.tokenUuid,
      attributes: { expires_at: new Date(Date.now() - 1000).toISOString() },
    });
    await p2.getByRole('link', { name: 'Shared with me' }).click();
    await p2.waitForURL('**/sign-in');
    await p2.getByText('Your session has ended').waitFor();
    expect(second.problems.csp).toEqual([]);
    await second.context.close();

    await page.getByRole('button', { name: LOGIN.user }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await page.getByText('You are signed out.').waitFor();
  });
});
