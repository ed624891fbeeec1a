/**
 * Processes in Chromium with real containers (bubblewrap, Debian's static busybox): the run
 * form starts one whose log line appears on its page while it runs; "run again" starts a copy,
 * which is then cancelled; the processes list shows both with their states.
 */
import type { Page } from 'playwright-core';
import { useDeployment } from '../harness/deployment';
import { checkScreen, describeInBrowser, useConsoleBrowser } from '../harness/console-browser';
import { saveBusyboxImage, saveFiles, startLocalDispatcher, until } from '../harness/run-images';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

jest.setTimeout(90_000);

describeInBrowser('the web console: processes', () => {
  // declared before the deployment's own hook, so that it runs first (hooks run in order)
  afterAll(async () => {
    await local?.dispatcher.stop();
    local?.cleanup();
  });
  const d = useDeployment(withVolumes(volumeDirs(1)));
  let local: Awaited<ReturnType<typeof startLocalDispatcher>>;
  let page: Page;
  let u: TestUser;
  let image: string;
  let first: string;

  beforeAll(async () => {
    u = await makeUser(d.current);
    image = await saveBusyboxImage(u.client);
    await saveFiles(u.client, { 'hello.txt': 'hello from an input\n' }, { name: 'greetings' });
    local = await startLocalDispatcher(d.current);
  }, 60_000);
  const session = useConsoleBrowser(
    () => d.current.url,
    () => u.token,
  );
  beforeAll(() => ({ page } = session.current));

  const status = () => page.getByTestId('process-status');

  it('runs a busybox process from the form and shows its log line while it runs', async () => {
    await page.goto('/run');
    await page.getByLabel('Name').fill('greeting');
    await page.getByLabel('Image').fill(image);
    await page
      .getByLabel('Command')
      .fill("sh -c 'echo started; cat /inputs/greetings/hello.txt; sleep 4; echo hi > /out/x'");
    await page.getByPlaceholder('Search collections by name').fill('greet');
    await page.getByRole('option', { name: 'greetings' }).click();
    await page.keyboard.press('Escape');
    expect(await checkScreen(page, 'run-form')).toEqual([]);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL('**/processes/*');
    first = /processes\/([a-z0-9-]+)/.exec(page.url())![1]!;

    const stdout = page.getByTestId('log-stdout');
    await stdout.getByText(/started/).waitFor({ timeout: 45_000 });
    // the line came while the container was still running: no page reload happened
    expect(await status().textContent()).toBe('Running');
    await stdout.getByText(/hello from an input/).waitFor();
    await status().getByText('Completed').waitFor({ timeout: 45_000 });
    await page.getByRole('link', { name: 'output collection' }).waitFor();
    const cr = await u.client.api.containerRequests.get({ uuid: first });
    expect(cr.mounts).toMatchObject({ '/inputs/greetings': { kind: 'collection' } });
    expect(cr.command).toEqual([
      'sh',
      '-c',
      'echo started; cat /inputs/greetings/hello.txt; sleep 4; echo hi > /out/x',
    ]);
    expect(await checkScreen(page, 'process')).toEqual([]);
  });

  it('runs it again with another command, then cancels that one', async () => {
    await page.getByRole('link', { name: 'Run again' }).click();
    await page.getByRole('heading', { name: 'Run again' }).waitFor();
    expect(await page.getByLabel('Image').inputValue()).toBe(image);
    expect(await page.getByLabel('Name').inputValue()).toBe('greeting (again)');
    await page.getByLabel('Command').fill("sh -c 'echo waiting; sleep 120'");
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(
      (url) => !url.pathname.endsWith(first) && url.pathname.startsWith('/processes/'),
    );
    const second = /processes\/([a-z0-9-]+)/.exec(page.url())![1]!;
    await page
      .getByTestId('log-stdout')
      .getByText(/waiting/)
      .waitFor({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await status().getByText('Cancelled').waitFor({ timeout: 45_000 });
    const cr = await until('cancelled request Final', async () => {
      const r = await u.client.api.containerRequests.get({ uuid: second });
      return r.state === 'Final' && r;
    });
    expect(cr.priority).toBe(0);
    const c = await u.client.api.containers.get({ uuid: cr.container_uuid! });
    expect(c.state).toBe('Cancelled');
  });

  it('lists both processes with their states', async () => {
    await page.getByRole('link', { name: 'Processes' }).click();
    const table = page.getByRole('table', { name: 'Processes' });
    await table.getByRole('row', { name: /greeting \(again\).*Cancelled/ }).waitFor();
    await table.getByRole('row', { name: /^greeting .*Completed/ }).waitFor();
    expect(await checkScreen(page, 'processes')).toEqual([]);
  });
});
