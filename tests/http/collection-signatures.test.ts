import { DirectoryVolume } from '@svc/volumes';
import { useDeployment } from '../harness/deployment';
import { signFor, unsigned } from '../harness/signing';
import { md5, raw, volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

const dirs = volumeDirs(1);
const d = useDeployment(withVolumes(dirs));
const TTL = 1209600;
const SIGNED_LOCATOR = /^[0-9a-f]{32}\+[0-9]+(\+[A-Z][^+ ]*)*\+A([0-9a-f]{40})@([0-9a-f]{8})$/;

let U: TestUser;
beforeAll(async () => {
  U = await makeUser(d.current);
});

/** PUTs a block as `u` and answers its signed locator. */
async function putBlock(u: TestUser, data: string): Promise<string> {
  const res = await raw(d.current.url, 'PUT', `/${md5(data)}`, { token: u.token, body: data });
  expect(res.status).toBe(200);
  return res.text.trim();
}
const readBlock = (locator: string, token: string) =>
  raw(d.current.url, 'GET', `/${locator}`, { token });
const locatorsOf = (manifest: string) =>
  manifest.split('\n').flatMap((line) => line.split(' ').filter((t) => /^[0-9a-f]{32}\+/.test(t)));
const create = (u: TestUser, manifest: string, extra: Record<string, unknown> = {}) =>
  u.client.request('POST', '/svc/v1/collections', {
    json: { collection: { manifest_text: manifest, ...extra } },
  });

describe('manifests on the way out (storage.md §5)', () => {
  let uuid: string;
  let pdh: string;
  beforeAll(async () => {
    const a = await putBlock(U, 'block a');
    const b = await putBlock(U, 'block b');
    const res = await create(U, `. ${a} ${b}+Kkeep 0:14:ab.txt\n`);
    expect(res.status).toBe(200);
    uuid = res.body.uuid;
    pdh = res.body.portable_data_hash;
  });

  it('signs every locator for the token of the request, and stores none of it', async () => {
    const res = await U.client.request('GET', `/svc/v1/collections/${uuid}`);
    const locators = locatorsOf(res.body.manifest_text);
    expect(locators).toHaveLength(2);
    for (const l of locators) {
      const m = SIGNED_LOCATOR.exec(l)!;
      expect(m).not.toBeNull();
      expect(Math.abs(parseInt(m[3]!, 16) - (Date.now() / 1000 + TTL))).toBeLessThan(60);
      expect((await readBlock(l, U.token)).status).toBe(200);
    }
    expect(locators[1]).toContain('+Kkeep');
    expect(res.body.unsigned_manifest_text).toBe(unsigned(res.body.manifest_text));
    expect(res.body.unsigned_manifest_text).not.toContain('+A');
    expect(res.body.unsigned_manifest_text).toContain('+Kkeep');
  });

  it('signs for the literal token: another token, or the bare secret, gets other signatures', async () => {
    const asRoot = await d.current.root.request('GET', `/svc/v1/collections/${uuid}`);
    const rootLocator = locatorsOf(asRoot.body.manifest_text)[0]!;
    expect((await readBlock(rootLocator, d.current.home.rootToken)).status).toBe(200);
    expect(await readBlock(rootLocator, U.token)).toMatchObject({
      status: 403,
      text: 'invalid signature\n',
    });
    const secret = U.token.split('/')[2]!;
    const bySecret = await d.current.client(secret).request('GET', `/svc/v1/collections/${uuid}`);
    const secretLocator = locatorsOf(bySecret.body.manifest_text)[0]!;
    expect((await readBlock(secretLocator, secret)).status).toBe(200);
    expect((await readBlock(secretLocator, U.token)).status).toBe(403);
  });

  it('signs lists that select manifest_text, gets by PDH, and update answers', async () => {
    const list = await U.client.request('GET', '/svc/v1/collections', {
      query: { filters: [['uuid', '=', uuid]], select: ['uuid', 'manifest_text'] },
    });
    expect(locatorsOf(list.body.items[0].manifest_text).every((l) => SIGNED_LOCATOR.test(l))).toBe(
      true,
    );
    const byPdh = await U.client.request('GET', `/svc/v1/collections/${pdh}`);
    expect(locatorsOf(byPdh.body.manifest_text).every((l) => SIGNED_LOCATOR.test(l))).toBe(true);
    const updated = await U.client.request('PUT', `/svc/v1/collections/${uuid}`, {
      json: { collection: { name: 'renamed' } },
    });
    expect(locatorsOf(updated.body.manifest_text).every((l) => SIGNED_LOCATOR.test(l))).toBe(true);
  });

  it('expires at trash_at when that comes first; a trashed collection is not signed', async () => {
    const a = await putBlock(U, 'soon trashed');
    const trashAt = new Date(Date.now() + 3600_000).toISOString();
    const res = await create(U, `. ${a} 0:12:t\n`, { trash_at: trashAt });
    const expiry = parseInt(SIGNED_LOCATOR.exec(locatorsOf(res.body.manifest_text)[0]!)![3]!, 16);
    expect(expiry).toBe(Math.floor(Date.parse(trashAt) / 1000));
    const del = await U.client.request('DELETE', `/svc/v1/collections/${res.body.uuid}`);
    expect(del.body.manifest_text).toBe(`. ${unsigned(a)} 0:12:t\n`);
    const got = await U.client.request('GET', `/svc/v1/collections/${res.body.uuid}`, {
      query: { include_trash: true },
    });
    expect(got.body.manifest_text).not.toContain('+A');
  });

  it('never signs the empty block or an empty manifest', async () => {
    const empty = await create(U, `. d41d8cd98f00b204e9800998ecf8427e+0 0:0:empty.txt\n`);
    expect(empty.status).toBe(200);
    expect(empty.body.manifest_text).toBe('. d41d8cd98f00b204e9800998ecf8427e+0 0:0:empty.txt\n');
    const none = await create(U, '');
    expect(none.body.manifest_text).toBe('');
  });
});

describe('manifests on the way in (storage.md §5)', () => {
  it('403 on the first locator without a valid signature for this token', async () => {
    const good = await putBlock(U, 'good block');
    const bare = `${md5('never signed')}+12`;
    const res = await create(U, `. ${good} ${bare} ${md5('x')}+1 0:23:f\n`);
    expect([res.status, res.body.errors]).toEqual([403, [`invalid signature on locator ${bare}`]]);
  });

  it('403 for an expired signature made with the right key, and one for another token', async () => {
    const loc = `${md5('some block')}+10`;
    const expired = signFor(d.current, U.token, loc, Math.floor(Date.now() / 1000) - 5);
    const a = await create(U, `. ${expired} 0:10:f\n`);
    expect([a.status, a.body.errors]).toEqual([403, [`invalid signature on locator ${expired}`]]);
    const other = await makeUser(d.current);
    const theirs = signFor(d.current, other.token, loc);
    const b = await create(U, `. ${theirs} 0:10:f\n`);
    expect([b.status, b.body.errors]).toEqual([403, [`invalid signature on locator ${theirs}`]]);
    expect((await create(U, `. ${signFor(d.current, U.token, loc)} 0:10:f\n`)).status).toBe(200);
  });

  it('admins may save unsigned locators', async () => {
    const res = await d.current.root.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: `. ${md5('admin')}+5 0:5:f\n` } },
    });
    expect(res.status).toBe(200);
  });

  it('checks syntax (422), then signatures (403), then the rest (422), after permission', async () => {
    const syntax = await create(U, `. ${md5('x')}+1 nofile\n`);
    expect(syntax.status).toBe(422);
    expect(syntax.body.errors[0]).toMatch(/^manifest_text is not a valid manifest/);
    const bare = `${md5('y')}+1`;
    const sig = await create(U, `. ${bare} 0:1:f\n`, { name: 'n'.repeat(300) });
    expect([sig.status, sig.body.errors]).toEqual([403, [`invalid signature on locator ${bare}`]]);
    const mine = await create(U, '');
    const other = await makeUser(d.current);
    const denied = await other.client.request('PUT', `/svc/v1/collections/${mine.body.uuid}`, {
      json: { collection: { manifest_text: `. ${bare} 0:1:f\n` } },
    });
    expect(denied.status).toBe(404);
  });

  it('an update that keeps the stored manifest needs no signatures; one that changes it does', async () => {
    const made = await d.current.root.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: `. ${md5('kept')}+4 0:4:f\n`, owner_uuid: U.uuid } },
    });
    const same = await U.client.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
      json: { collection: { manifest_text: `. ${md5('kept')}+4 0:4:f\n` } },
    });
    expect(same.status).toBe(200);
    const changed = await U.client.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
      json: { collection: { manifest_text: `. ${md5('kept')}+4 0:4:g\n` } },
    });
    expect(changed.status).toBe(403);
  });
});

describe('blocks and replication (storage.md §5)', () => {
  it('restores a trashed block the new manifest names, before the write answers', async () => {
    const data = 'trashed then saved';
    const loc = await putBlock(U, data);
    const volume = new DirectoryVolume('vol0', dirs[0]!, { readOnly: false, replication: 1 });
    expect(await volume.trash(md5(data), (await volume.stat(md5(data)))!.mtimeNs)).toBe(true);
    expect((await readBlock(loc, U.token)).status).toBe(404);
    expect((await create(U, `. ${loc} 0:18:f\n`)).status).toBe(200);
    expect((await readBlock(loc, U.token)).text).toBe(data);
  });

  it('adding a block clears replication_confirmed; other changes keep it', async () => {
    const a = await putBlock(U, 'replica a');
    const made = await create(U, `. ${a} 0:9:a\n`);
    const setByAdmin = await d.current.root.request(
      'PUT',
      `/svc/v1/collections/${made.body.uuid}`,
      {
        json: {
          collection: {
            replication_confirmed: 2,
            replication_confirmed_at: '2026-01-01T00:00:00Z',
          },
        },
      },
    );
    expect(setByAdmin.body.replication_confirmed).toBe(2);
    const renamed = await U.client.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
      json: { collection: { name: 'still counted' } },
    });
    expect(renamed.body.replication_confirmed).toBe(2);
    const b = await putBlock(U, 'replica b');
    const grown = await U.client.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
      json: { collection: { manifest_text: `. ${a} ${b} 0:18:ab\n` } },
    });
    expect([
      grown.status,
      grown.body.replication_confirmed,
      grown.body.replication_confirmed_at,
    ]).toEqual([200, null, null]);
  });
});
