/**
 * Collections and sharing in Chromium: a folder uploaded by drag and drop (with progress and a
 * resumed failure), the file browser (view, download, rename, move, delete), and a collection
 * shared with a second user, who then finds it under "Shared with me".
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { useDeployment } from '../harness/deployment';
import {
  checkScreen,
  describeInBrowser,
  signInWithToken,
  useConsoleBrowser,
  type ConsoleBrowser,
  type PageProblems,
} from '../harness/console-browser';
import { makeUser, type TestUser } from '../harness/users';
import { volumeDirs, withVolumes } from '../harness/storage';

jest.setTimeout(60_000);

/** A tiny PNG (1×1, red). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A folder `results/` with a text file, an image and a subfolder. */
function makeFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'console-upload-'));
  mkdirSync(join(root, 'results', 'run1'), { recursive: true });
  writeFileSync(join(root, 'results', 'notes.txt'), 'hello from the console\n');
  writeFileSync(join(root, 'results', 'plot.png'), PNG);
  writeFileSync(join(root, 'results', 'run1', 'data.csv'), 'a,b\n1,2\n');
  return join(root, 'results');
}

/** Drags a folder of this machine onto an element, as a person would from a file manager. */
async function dropFolder(page: Page, selector: string, folder: string): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [folder], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'])
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data } as never);
  await cdp.detach();
}

describeInBrowser('the web console: collections and sharing', () => {
  const d = useDeployment(withVolumes(volumeDirs(1)));
  let page: Page;
  let problems: PageProblems;
  let owner: TestUser;
  let collection: string;
  const dialog = () => page.getByRole('dialog');
  const files = () => page.getByRole('table', { name: 'Files' });
  const fileNames = async () =>
    (await files().locator('tbody tr td:first-child').allTextContents()).map((t) => t.trim());
  const rowAction = async (name: string, action: string) => {
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: action }).click();
  };

  beforeAll(async () => {
    owner = await makeUser(d.current, { first_name: 'Olga', last_name: 'Owner' });
  });
  const session = useConsoleBrowser(
    () => d.current.url,
    () => owner.token,
  );
  let b: ConsoleBrowser;
  beforeAll(() => ({ browser: b, page, problems } = session.current));

  it('creates a collection and uploads a folder dropped onto it', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('menuitem', { name: 'Collection' }).click();
    await dialog().getByLabel('Name').fill('Spring samples');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Spring samples', level: 1 }).waitFor();
    collection = /collections\/([a-z0-9-]+)/.exec(page.url())![1]!;
    await dropFolder(page, '[data-testid=dropzone]', makeFolder());
    await page.getByText('Uploaded 3 files').waitFor();
    await files().getByText('results/').waitFor();
    const c = await owner.client.api.collections.get({ uuid: collection });
    expect(c.manifest_text).toMatch(/\.\/results .*notes\.txt/);
    expect(c.manifest_text).toMatch(/\.\/results\/run1 .*data\.csv/);
    expect(await checkScreen(page, 'collection')).toEqual([]);
  });

  it('views text and images in place, and downloads a file', async () => {
    await files().getByText('results/').click();
    await files().getByText('run1/').waitFor();
    expect(await fileNames()).toEqual(['run1/', 'notes.txt', 'plot.png']);
    await files().getByText('notes.txt').click();
    await dialog().getByTestId('file-text').getByText('hello from the console').waitFor();
    expect(await checkScreen(page, 'file-view')).toEqual([]);
    await page.keyboard.press('Escape');
    await files().getByText('plot.png').click();
    const img = dialog().getByRole('img', { name: 'results/plot.png' });
    await img.waitFor();
    await page.waitForFunction("document.querySelector('[role=dialog] img')?.naturalWidth === 1");
    await page.keyboard.press('Escape');
    const download = page.waitForEvent('download');
    await rowAction('notes.txt', 'Download');
    const saved = await (await download).path();
    expect(readFileSync(saved, 'utf8')).toBe('hello from the console\n');
  });

  it('renames, moves and deletes files', async () => {
    await rowAction('notes.txt', 'Rename');
    await dialog().getByLabel('Name').fill('README.txt');
    await dialog().getByRole('button', { name: 'Rename' }).click();
    await files().getByText('README.txt').waitFor();
    await rowAction('plot.png', 'Move to folder…');
    await dialog().getByLabel('Name').fill('results/run1');
    await dialog().getByRole('button', { name: 'Move' }).click();
    await files().getByText('plot.png').waitFor({ state: 'detached' });
    await rowAction('README.txt', 'Delete');
    await dialog().getByRole('button', { name: 'Delete' }).click();
    await files().getByText('README.txt').waitFor({ state: 'detached' });
    const manifest = (await owner.client.api.collections.get({ uuid: collection })).manifest_text;
    expect(manifest).not.toMatch(/notes\.txt|README\.txt/);
    expect(manifest).toMatch(
      /\.\/results\/run1 .*data\.csv.*plot\.png|\.\/results\/run1 .*plot\.png/,
    );
  });

  it('resumes an upload that failed part-way, sending only what is left', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'console-resume-')), 'batch');
    mkdirSync(dir);
    const names = ['a.txt', 'b.txt', 'c.txt', 'd.txt'];
    for (const n of names) writeFileSync(join(dir, n), `file ${n}\n`);
    const puts: string[] = [];
    let failOnce = true;
    await page.route('**/c=*/**', async (route) => {
      const req = route.request();
      if (req.method() !== 'PUT') return route.fallback();
      puts.push(decodeURIComponent(new URL(req.url()).pathname.split('/').pop()!));
      if (failOnce && req.url().endsWith('/c.txt')) {
        failOnce = false;
        return route.fulfill({ status: 503, body: 'volume unavailable' });
      }
      return route.fallback();
    });
    await page.getByTestId('folder-input').setInputFiles(dir);
    await page.getByText('Upload failed').waitFor();
    await page.getByText('volume unavailable').waitFor();
    await page.getByRole('button', { name: 'Resume upload' }).click();
    await page.getByText('Uploaded 4 files').waitFor();
    await page.unroute('**/c=*/**');
    // the refused PUT, which the browser reports on its console
    expect(problems.errors.splice(0)).toEqual([expect.stringMatching(/status of 503/)]);
    expect(puts.filter((p) => p === 'c.txt')).toHaveLength(2);
    for (const n of ['a.txt', 'b.txt', 'd.txt'])
      expect(puts.filter((p) => p === n)).toHaveLength(1);
    await files().getByText('batch/').click();
    await files().getByText('d.txt').waitFor();
    expect(await fileNames()).toEqual(names);
  });

  it('shares the collection with a second user, who finds it under Shared with me', async () => {
    const reader = await makeUser(d.current, { first_name: 'Rita', last_name: 'Reader' });
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Share…' }).click();
    await dialog().getByLabel('Person or group').fill('Rita');
    await page.getByRole('option', { name: /Rita Reader/ }).click();
    await dialog().getByLabel('Access', { exact: true }).click();
    await page.getByRole('option', { name: 'Can write' }).click();
    await dialog().getByRole('button', { name: 'Share' }).click();
    const access = dialog().getByRole('table', { name: 'Who has access' });
    await access.getByText('Rita Reader').waitFor();
    expect(await checkScreen(page, 'sharing')).toEqual([]);
    await page.keyboard.press('Escape');
    const links = await owner.client.api.links.list({
      filters: [
        ['head_uuid', '=', collection],
        ['link_class', '=', 'permission'],
      ],
    });
    expect(links.items.map((l) => [l.tail_uuid, l.name])).toEqual([[reader.uuid, 'can_write']]);

    const second = await b.open(d.current.url);
    await signInWithToken(second.context, reader.token);
    await second.page.goto('/shared');
    const row = second.page.getByRole('row', { name: /Spring samples/ });
    await row.waitFor();
    expect(await checkScreen(second.page, 'shared-with-me')).toEqual([]);
    await row.getByRole('link', { name: 'Spring samples' }).click();
    await second.page.getByRole('heading', { name: 'Spring samples', level: 1 }).waitFor();
    expect(second.problems).toEqual({ csp: [], errors: [] });
    await second.context.close();
  });
});
