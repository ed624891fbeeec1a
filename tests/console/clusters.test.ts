/**
 * Several clusters, search, groups and admin in Chromium, on two clusters behind one gateway:
 * the cluster switcher and a remote project marked with its cluster, opening objects by uuid
 * and PDH, sharing with a user of the other cluster, search by name and property, role groups
 * and their members, and the admin's user list.
 */
import type { Page } from 'playwright-core';
import {
  checkScreen,
  describeInBrowser,
  signInWithToken,
  useConsoleBrowser,
  type ConsoleBrowser,
} from '../harness/console-browser';
import { federatedUser, useFederation } from '../harness/federation';

jest.setTimeout(60_000);

describeInBrowser('the web console: clusters, search, groups, admin', () => {
  const f = useFederation('one-gateway', ['home1', 'rmt02']);
  let page: Page;
  let alice: Awaited<ReturnType<typeof federatedUser>>;
  const dialog = () => page.getByRole('dialog');
  const searchFor = async (text: string) => {
    await page.getByLabel('Search, or paste a uuid or portable data hash').fill(text);
    await page.keyboard.press('Enter');
  };

  beforeAll(async () => {
    alice = await federatedUser(f.current, 'home1', { first_name: 'Alice', last_name: 'Home' });
  });
  const session = useConsoleBrowser(
    () => f.current.gatewayOf('home1'),
    () => alice.token,
  );
  let b: ConsoleBrowser;
  beforeAll(() => ({ browser: b, page } = session.current));

  it('lists the remote cluster and opens its objects marked with their cluster', async () => {
    const api = alice.at('home1').api;
    const remote = await api.groups.create({
      attributes: { name: 'Remote runs', group_class: 'project' },
      cluster_id: 'rmt02',
    });
    await api.collections.create({
      attributes: { name: 'Remote data', owner_uuid: remote.uuid },
      cluster_id: 'rmt02',
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'Cluster home1' }).click();
    await page.getByRole('menuitem', { name: 'rmt02' }).click();
    await page.getByRole('heading', { name: 'Cluster rmt02' }).waitFor();
    const row = page.getByRole('row', { name: /Remote runs/ });
    await row.getByText('rmt02', { exact: true }).waitFor();
    expect(await checkScreen(page, 'cluster')).toEqual([]);
    await row.getByRole('link', { name: 'Remote runs' }).click();
    await page.getByRole('heading', { name: 'Remote runs', level: 1 }).waitFor();
    await page.getByRole('row', { name: /Remote data/ }).waitFor();
    expect(page.url()).toContain(`/projects/${remote.uuid}`);

    await page.goto('/');
    await searchFor(remote.uuid);
    await page.getByRole('heading', { name: 'Remote runs', level: 1 }).waitFor();
  });

  it('shares a project with a user of the other cluster', async () => {
    const bob = await federatedUser(f.current, 'rmt02', { first_name: 'Bob', last_name: 'Remote' });
    const api = alice.at('home1').api;
    const project = await api.groups.create({
      attributes: { name: 'For Bob', group_class: 'project' },
    });
    await page.goto(`/projects/${project.uuid}`);
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Share…' }).click();
    await dialog().getByLabel('Cluster', { exact: true }).click();
    await page.getByRole('option', { name: 'rmt02' }).click();
    await dialog().getByRole('combobox', { name: 'Person or group' }).fill('Bob');
    await page.getByRole('option', { name: /Bob Remote/ }).click();
    await dialog().getByRole('button', { name: 'Share' }).click();
    const access = dialog().getByRole('table', { name: 'Who has access' });
    await access.getByRole('row', { name: /Bob Remote.*rmt02/ }).waitFor();
    await page.keyboard.press('Escape');
    const shared = await bob.at('home1').api.groups.get({ uuid: project.uuid });
    expect(shared.name).toBe('For Bob');
  });

  it('searches by name and by property, and opens a collection by its PDH', async () => {
    const api = alice.at('home1').api;
    const c = await api.collections.create({
      attributes: { name: 'Genome assembly', properties: { species: 'zebrafish' } },
    });
    await api.collections.create({ attributes: { name: 'Unrelated' } });
    await searchFor('assembly');
    const results = page.getByRole('table', { name: 'Search results' });
    await results.getByRole('link', { name: 'Genome assembly' }).waitFor();
    expect(await results.locator('tbody tr').count()).toBe(1);
    expect(await checkScreen(page, 'search')).toEqual([]);
    await searchFor('zebrafish');
    await page.waitForURL('**/search?q=zebrafish');
    await results.getByRole('link', { name: 'Genome assembly' }).waitFor();
    await searchFor(c.portable_data_hash);
    await page.getByRole('heading', { name: 'Collection content' }).waitFor();
    await page.getByText(c.portable_data_hash, { exact: true }).first().waitFor();
  });

  it('creates a role group and manages its members', async () => {
    const carol = await federatedUser(f.current, 'home1', {
      first_name: 'Carol',
      last_name: 'Lab',
    });
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'New group' }).click();
    await dialog().getByLabel('Name').fill('Sequencing lab');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: /Sequencing lab/, level: 1 }).waitFor();
    const role = /groups\/([a-z0-9-]+)/.exec(page.url())![1]!;
    await page.getByRole('combobox', { name: 'Person or group' }).fill('Carol');
    await page.getByRole('option', { name: /Carol Lab/ }).click();
    await page.getByRole('button', { name: 'Share' }).click();
    const members = page.getByRole('table', { name: 'Members' });
    await members.getByText('Carol Lab').waitFor();
    expect(await checkScreen(page, 'group')).toEqual([]);
    const asCarol = await alice.at('home1').api.links.list({
      filters: [
        ['head_uuid', '=', role],
        ['tail_uuid', '=', carol.uuid],
      ],
    });
    expect(asCarol.items.map((l) => l.name)).toEqual(['can_read']);
    await members.getByRole('button', { name: 'Remove Carol Lab' }).click();
    await members.getByText('Carol Lab').waitFor({ state: 'detached' });
  });

  it('lets an admin deactivate (unsetup) and activate users', async () => {
    const admin = await federatedUser(f.current, 'home1', { is_admin: true, first_name: 'Ada' });
    const dan = await federatedUser(f.current, 'home1', { first_name: 'Dan', last_name: 'User' });
    const second = await b.open(f.current.gatewayOf('home1'));
    await signInWithToken(second.context, admin.token);
    const p = second.page;
    await p.goto('/');
    await p.getByRole('link', { name: 'Users' }).click();
    await p.getByLabel('Filter by name or email').fill('Dan');
    await p.getByRole('button', { name: 'Deactivate Dan User', exact: true }).click();
    await p.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await p.getByRole('button', { name: 'Activate Dan User', exact: true }).waitFor();
    const root = f.current.rootOf('home1').api;
    expect((await root.users.get({ uuid: dan.uuid })).is_active).toBe(false);
    // unsetup: Dan's token is gone with the membership
    await expect(dan.at('home1').api.users.current()).rejects.toMatchObject({ status: 401 });
    expect(await checkScreen(p, 'admin-users')).toEqual([]);
    await p.getByRole('button', { name: 'Activate Dan User', exact: true }).click();
    await p.getByRole('button', { name: 'Deactivate Dan User', exact: true }).waitFor();
    expect((await root.users.get({ uuid: dan.uuid })).is_active).toBe(true);
    expect(second.problems).toEqual({ csp: [], errors: [] });
    await second.context.close();
    // and the link is not offered to others
    expect(await page.getByRole('link', { name: 'Users' }).count()).toBe(0);
  });
});
