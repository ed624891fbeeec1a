/**
 * Block-service counts on `/metrics` (storage.md §4 and §6): garbage collection's runs and the
 * copies it trashed, restored and deleted on the core that runs it, and the corrupt copies a
 * read found on the gateway that served it. Both behind the ManagementToken.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { homeCore, useDeployment } from '../harness/deployment';
import { md5, raw, volumeDirs, withVolumes } from '../harness/storage';

const MANAGEMENT_TOKEN = 'managementTokenOfTheBlockMetricsTest00';
const dirs = volumeDirs(1);
const d = useDeployment(
  withVolumes(dirs, {}, (section) => (section['ManagementToken'] = MANAGEMENT_TOKEN)),
);

const live = (hash: string) => join(dirs[0]!, hash.slice(0, 3), hash);
const trashed = (hash: string) => join(dirs[0]!, 'trash', hash.slice(0, 3), hash);
/** A file's times set 30 days back: older than BlobSigningTTL and BlobTrashLifetime. */
const age = (file: string) => {
  const old = Date.now() / 1000 - 30 * 86_400;
  utimesSync(file, old, old);
};

async function put(data: string): Promise<string> {
  const res = await raw(d.current.url, 'PUT', `/${md5(data)}`, {
    token: d.current.home.rootToken,
    body: data,
  });
  expect(res.status).toBe(200);
  return res.text.trim();
}

/** One sample's value from a `/metrics` text, by its name and its own labels (app, cluster added). */
async function sample(base: string, name: string, labels = ''): Promise<number | null> {
  const res = await fetch(`${base}/metrics`, {
    headers: { Authorization: `Bearer ${MANAGEMENT_TOKEN}` },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const app = base === d.current.url ? 'gateway' : 'core';
  const prefix = `${name}{${labels}${labels ? ',' : ''}app="${app}",cluster="${d.current.home.id}"} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? null : Number(line.slice(prefix.length));
}

describe('garbage collection counts on the core /metrics (storage.md §6)', () => {
  const gcSample = (name: string, labels = '') => sample(d.current.home.coreUrl, name, labels);
  const blocks = (action: string) => gcSample('svc_block_gc_blocks_total', `action="${action}"`);

  it('0 before any run; after runs: runs, trashed, restored, deleted and what was found', async () => {
    expect(await gcSample('svc_block_gc_runs_total')).toBe(0);
    expect(await blocks('trashed')).toBe(0);

    const named = 'metrics: named again';
    const dropped = 'metrics: dropped';
    await put(named);
    await put(dropped);
    age(live(md5(named)));
    age(live(md5(dropped)));
    await homeCore(d.current).jobs.runNow('block-gc');
    expect(await gcSample('svc_block_gc_runs_total')).toBe(1);
    expect([await blocks('trashed'), await blocks('restored'), await blocks('deleted')]).toEqual([
      2, 0, 0,
    ]);
    expect(await gcSample('svc_block_gc_last_run_blocks', 'kind="stored"')).toBe(2);

    // One named by a manifest again (written straight to the table: no restore on the way),
    // the other left in the trash past BlobTrashLifetime.
    const made = await d.current.root.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: '' } },
    });
    expect(made.status).toBe(200);
    await homeCore(d.current).db.query({
      text: 'UPDATE collections SET manifest_text = $1 WHERE uuid = $2',
      values: [`. ${md5(named)}+${named.length} 0:${named.length}:f\n`, made.body.uuid],
    });
    age(trashed(md5(dropped)));
    await homeCore(d.current).jobs.runNow('block-gc');
    expect(await gcSample('svc_block_gc_runs_total')).toBe(2);
    expect([await blocks('trashed'), await blocks('restored'), await blocks('deleted')]).toEqual([
      2, 1, 1,
    ]);
    expect(await gcSample('svc_block_gc_last_run_blocks', 'kind="referenced"')).toBe(1);
  });

  it('needs the ManagementToken', async () => {
    const res = await fetch(`${d.current.home.coreUrl}/metrics`);
    expect(res.status).toBe(401);
  });
});

describe('corrupt copies on the gateway /metrics (storage.md §4)', () => {
  it('a GET and a HEAD that find a corrupt copy count one each', async () => {
    const data = 'metrics: soon corrupt';
    const locator = await put(data);
    writeFileSync(live(md5(data)), 'X'.repeat(data.length));
    const corrupt = () => sample(d.current.url, 'svc_block_corrupt_copies_total');
    const before = await corrupt();
    expect(before).not.toBeNull();

    const read = await request(`${d.current.url}/${locator}`, {
      headers: { authorization: `Bearer ${d.current.home.rootToken}` },
    }).then(
      async (r) => Buffer.from(await r.body.arrayBuffer()).toString(),
      (e: Error) => `failed: ${e.message}`,
    );
    expect(read).toMatch(/^failed/);
    expect(await corrupt()).toBe(before! + 1);

    const head = await raw(d.current.url, 'HEAD', `/${locator}`, {
      token: d.current.home.rootToken,
    });
    expect(head.status).toBe(502);
    expect(await corrupt()).toBe(before! + 2);
  });
});
