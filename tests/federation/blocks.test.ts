import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHAPES, federatedUser, useFederation } from '../harness/federation';
import { md5, raw } from '../harness/storage';

/**
 * Blocks of other clusters (storage.md §4, §7), the same in both deployment shapes: a user of
 * home1 stores blocks and a collection on rmt02 through home1's gateway, reads the collection
 * back with `+R` locators, reads its blocks through home1, and copies them to home1.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const withVolume = (id: string, section: Record<string, any>) => {
  const dir = mkdtempSync(join(tmpdir(), `svc-fed-blocks-${id}-`));
  dirs.push(dir);
  section['Volumes'] = { [`${id}-v`]: { Driver: 'Directory', DriverParameters: { Root: dir } } };
  section['Collections'] = { DefaultReplication: 1 };
};

const REMOTE = /^[0-9a-f]{32}\+[0-9]+\+Rrmt02-[0-9a-f]{40}@[0-9a-f]{8}$/;
const LOCAL = /^[0-9a-f]{32}\+[0-9]+\+A[0-9a-f]{40}@[0-9a-f]{8}$/;
const locatorsOf = (manifest: string) =>
  manifest.split('\n').flatMap((line) => line.split(' ').filter((t) => /^[0-9a-f]{32}\+/.test(t)));

describe.each(SHAPES)('blocks of another cluster (%s)', (shape) => {
  const f = useFederation(shape, ['home1', 'rmt02'], { configure: withVolume });
  let alice: Awaited<ReturnType<typeof federatedUser>>;
  let gw: string;
  const dataA = `block a on rmt02 ${shape}`;
  const dataB = `block b on rmt02 ${shape}`;
  let remoteA: string;
  let remoteB: string;
  let collection: { uuid: string; portable_data_hash: string; manifest_text: string };

  beforeAll(async () => {
    alice = await federatedUser(f.current, 'home1');
    gw = f.current.gatewayOf('home1');
    const put = async (data: string) => {
      const res = await raw(gw, 'PUT', `/${md5(data)}?cluster_id=rmt02`, {
        token: alice.token,
        body: data,
      });
      expect([res.status, res.text]).toEqual([200, expect.any(String)]);
      return res;
    };
    const a = await put(dataA);
    remoteA = a.text.trim();
    expect(a.headers['x-keep-replicas-stored']).toBe('1');
    remoteB = (await put(dataB)).text.trim();
    const made = await alice.at('home1').request('POST', '/svc/v1/collections', {
      json: {
        collection: { manifest_text: `. ${remoteA} ${remoteB} 0:${dataA.length * 2}:ab.txt\n` },
        cluster_id: 'rmt02',
      },
    });
    expect(made.status).toBe(200);
    collection = made.body;
  });

  it('answers a PUT with cluster_id with the remote locator as +R, stored on that cluster only', async () => {
    expect(remoteA).toMatch(REMOTE);
    expect(remoteA.startsWith(`${md5(dataA)}+${dataA.length}+`)).toBe(true);
    const index = await raw(f.current.gatewayOf('rmt02'), 'GET', '/index', {
      token: f.current.rootToken('rmt02'),
    });
    if (shape === 'separate') expect(index.text).toContain(md5(dataA));
    const home = await raw(gw, 'GET', '/index', { token: f.current.rootToken('home1') });
    expect(home.status).toBe(200);
    expect(home.text).not.toContain(md5(dataA));
  });

  it('turns +R back into +A for a collection saved on that cluster, and answers it as +R', async () => {
    expect(collection.uuid.startsWith('rmt02-4zz18-')).toBe(true);
    const locators = locatorsOf(collection.manifest_text);
    expect(locators).toHaveLength(2);
    for (const l of locators) expect(l).toMatch(REMOTE);
    const got = await alice.at('home1').request('GET', `/svc/v1/collections/${collection.uuid}`);
    expect(got.status).toBe(200);
    expect(got.body.manifest_text).not.toContain('+A');
    for (const l of locatorsOf(got.body.manifest_text)) expect(l).toMatch(REMOTE);
  });

  it('reads +R blocks through this gateway with the salted token', async () => {
    const got = await alice.at('home1').request('GET', `/svc/v1/collections/${collection.uuid}`);
    const [a, b] = locatorsOf(got.body.manifest_text);
    const ra = await raw(gw, 'GET', `/${a}`, { token: alice.token });
    expect([ra.status, ra.text]).toEqual([200, dataA]);
    expect(ra.headers['content-length']).toBe(String(dataA.length));
    const rb = await raw(gw, 'GET', `/${b}`, { token: alice.token });
    expect([rb.status, rb.text]).toEqual([200, dataB]);
    const head = await raw(gw, 'HEAD', `/${a}`, { token: alice.token });
    expect(head.status).toBe(200);
  });

  it('answers +R reads in the contract order: 401, 400 for an unknown cluster, 403 from the remote', async () => {
    expect((await raw(gw, 'GET', `/${remoteA}`)).status).toBe(401);
    const unknown = await raw(gw, 'GET', `/${remoteA.replace('+Rrmt02-', '+Rzzzzz-')}`, {
      token: alice.token,
    });
    expect([unknown.status, unknown.text]).toEqual([
      400,
      'remote cluster zzzzz is not configured\n',
    ]);
    const forged = remoteA.replace(/-([0-9a-f])/, (_m, c: string) => `-${c === '0' ? '1' : '0'}`);
    const bad = await raw(gw, 'GET', `/${forged}`, { token: alice.token });
    expect([bad.status, bad.text]).toEqual([403, 'invalid signature\n']);
    const other = await federatedUser(f.current, 'home1');
    const stolen = await raw(gw, 'GET', `/${remoteA}`, { token: other.token });
    expect([stolen.status, stolen.text]).toEqual([403, 'invalid signature\n']);
  });

  it('refuses +R locators in a manifest saved here, and copies blocks here with X-Keep-Signature: local', async () => {
    const home = alice.at('home1');
    const refused = await home.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: `. ${remoteA} 0:${dataA.length}:a.txt\n` } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toBe(`invalid signature on locator ${remoteA}`);
    const copy = await raw(gw, 'HEAD', `/${remoteA}`, {
      token: alice.token,
      headers: { 'X-Keep-Signature': `local, ${new Date().toISOString()}` },
    });
    expect(copy.status).toBe(200);
    const local = copy.headers['x-keep-locator'] as string;
    expect(local).toMatch(LOCAL);
    expect(local.startsWith(`${md5(dataA)}+${dataA.length}+A`)).toBe(true);
    const read = await raw(gw, 'GET', `/${local}`, { token: alice.token });
    expect([read.status, read.text]).toEqual([200, dataA]);
    const saved = await home.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: `. ${local} 0:${dataA.length}:a.txt\n` } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.uuid.startsWith('home1-')).toBe(true);
  });

  it('rewrites remote manifests in federated lists and in a lookup by PDH', async () => {
    const home = alice.at('home1');
    const list = await home.request('GET', '/svc/v1/collections', {
      query: {
        filters: JSON.stringify([['uuid', 'in', [collection.uuid]]]),
        select: JSON.stringify(['uuid', 'manifest_text']),
        count: 'none',
      },
    });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    for (const l of locatorsOf(list.body.items[0].manifest_text)) expect(l).toMatch(REMOTE);
    const byPdh = await home.request('GET', `/svc/v1/collections/${collection.portable_data_hash}`);
    expect(byPdh.status).toBe(200);
    for (const l of locatorsOf(byPdh.body.manifest_text)) expect(l).toMatch(REMOTE);
    const [a] = locatorsOf(byPdh.body.manifest_text);
    expect((await raw(gw, 'GET', `/${a}`, { token: alice.token })).text).toBe(dataA);
  });
});
