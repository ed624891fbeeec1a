import { useDeployment } from '../harness/deployment';
import { signManifestFor, unsigned } from '../harness/signing';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const PLAIN = '. acbd18db4cc2f85cedef654fccc4a4d8+3 0:3:foo.txt\n';
/** The manifest as a client sends it: signed for its own token (storage.md §5). */
const signedFor = (u: TestUser) => signManifestFor(d.current, u.token, PLAIN);

describe('collections', () => {
  it('compute the portable data hash from the manifest, without permission hints', async () => {
    const u = await makeUser(d.current);
    const res = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: signedFor(u) } },
    });
    expect(unsigned(res.body.manifest_text)).toBe(PLAIN);
    expect(res.body).toMatchObject({
      portable_data_hash: '83367e8913dcec0bf3fc25ed5a27eacb+49',
      unsigned_manifest_text: PLAIN,
      file_count: 1,
      file_size_total: 3,
    });
  });

  it('check a supplied portable_data_hash and the manifest syntax', async () => {
    const u = await makeUser(d.current);
    const cases: [Record<string, unknown>, string][] = [
      [{ portable_data_hash: 'nope' }, 'portable_data_hash is not a valid locator'],
      [
        { manifest_text: signedFor(u), portable_data_hash: 'd41d8cd98f00b204e9800998ecf8427e+0' },
        "portable_data_hash 'd41d8cd98f00b204e9800998ecf8427e+0' does not match computed hash '83367e8913dcec0bf3fc25ed5a27eacb+49'",
      ],
      [
        { manifest_text: '. 0:3:foo\n' },
        'manifest_text is not a valid manifest: line 1: no block locator',
      ],
      [{ storage_classes_desired: [] }, 'storage_classes_desired must not be empty'],
    ];
    for (const [attrs, message] of cases) {
      const res = await u.client.request('POST', '/svc/v1/collections', {
        json: { collection: attrs },
      });
      expect([res.status, res.body.errors]).toEqual([422, [message]]);
    }
    const ok = await u.client.request('POST', '/svc/v1/collections', {
      json: {
        collection: {
          manifest_text: signedFor(u),
          portable_data_hash: '83367e8913dcec0bf3fc25ed5a27eacb+99',
        },
      },
    });
    expect([ok.status, ok.body.portable_data_hash]).toEqual([
      200,
      '83367e8913dcec0bf3fc25ed5a27eacb+49',
    ]);
  });

  it('are found by portable data hash when readable', async () => {
    const u = await makeUser(d.current);
    const other = await makeUser(d.current);
    await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: signedFor(u) } },
    });
    const byPdh = await u.client.request(
      'GET',
      '/svc/v1/collections/83367e8913dcec0bf3fc25ed5a27eacb+49',
    );
    expect(byPdh.body).toEqual({
      kind: 'svc#collection',
      portable_data_hash: '83367e8913dcec0bf3fc25ed5a27eacb+49',
      manifest_text: expect.stringMatching(
        /^\. acbd18db4cc2f85cedef654fccc4a4d8\+3\+A[0-9a-f]{40}@[0-9a-f]{8} 0:3:foo.txt\n$/,
      ),
    });
    expect(
      (await other.client.request('GET', '/svc/v1/collections/83367e8913dcec0bf3fc25ed5a27eacb+49'))
        .status,
    ).toBe(404);
  });

  it('keep replication and storage confirmations for admins', async () => {
    const u = await makeUser(d.current);
    const made = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { replication_confirmed: null } },
    });
    expect(made.status).toBe(200);
    const set = await u.client.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
      json: { collection: { replication_confirmed: 2 } },
    });
    expect([set.status, set.body.errors]).toEqual([403, ['Forbidden']]);
    const admin = await d.current.root.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
      json: { collection: { replication_confirmed: 2 } },
    });
    expect([admin.status, admin.body.replication_confirmed]).toEqual([200, 2]);
  });
});

describe('workflows', () => {
  it('take name and description from the definition unless given', async () => {
    const u = await makeUser(d.current);
    const def = 'name: From def\ndescription: Described\nclass: Workflow\n';
    const a = await u.client.request('POST', '/svc/v1/workflows', {
      json: { workflow: { definition: def } },
    });
    expect([a.body.name, a.body.description]).toEqual(['From def', 'Described']);
    const b = await u.client.request('POST', '/svc/v1/workflows', {
      json: { workflow: { definition: def, name: 'Mine' } },
    });
    expect([b.body.name, b.body.description]).toEqual(['Mine', 'Described']);
    const bad = await u.client.request('POST', '/svc/v1/workflows', {
      json: { workflow: { definition: 'a: [' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatch(/^definition is not valid yaml: /);
  });
});
