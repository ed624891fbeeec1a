/** Collections and workflows (other-resources.md §1, §2). */
import { createHash } from 'node:crypto';
import { useDeployment } from '../harness/deployment';
import { answer } from '../harness/answers';
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

  it('refuse file names leaving the collection and malformed locator hints (422)', async () => {
    const u = await makeUser(d.current);
    const L = 'acbd18db4cc2f85cedef654fccc4a4d8+3';
    const invalid = (detail: string) => [422, [`manifest_text is not a valid manifest: ${detail}`]];
    const cases: [string, unknown[]][] = [
      [`. ${L} 0:3:../x\n`, invalid('line 1: invalid file name "../x"')],
      [`. ${L} 0:3:a//b\n`, invalid('line 1: invalid file name "a//b"')],
      [`. ${L} 0:3:./..\n`, invalid('line 1: invalid file name "./.."')],
      [`. ${L} 0:3:sub/../../x\n`, invalid('line 1: invalid file name "sub/../../x"')],
      [`. ${L} 0:3:/etc/passwd\n`, invalid('line 1: invalid file name "/etc/passwd"')],
      [`. ${L} 0:3:.\n`, invalid('line 1: invalid file name "."')],
      [
        `. ${L}+a27f1c@65f0a000 0:3:a\n`,
        invalid(`line 1: invalid block locator "${L}+a27f1c@65f0a000"`),
      ],
      [`. ${L}+Kzz+k 0:3:a\n`, invalid(`line 1: invalid block locator "${L}+Kzz+k"`)],
      [`. ${L}+K/x 0:3:a\n`, invalid(`line 1: invalid block locator "${L}+K/x"`)],
    ];
    const made = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: {} },
    });
    for (const [manifest_text, answer] of cases) {
      const create = await u.client.request('POST', '/svc/v1/collections', {
        json: { collection: { manifest_text } },
      });
      expect([manifest_text, create.status, create.body.errors]).toEqual([
        manifest_text,
        ...answer,
      ]);
      const update = await u.client.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
        json: { collection: { manifest_text } },
      });
      expect([manifest_text, update.status, update.body.errors]).toEqual([
        manifest_text,
        ...answer,
      ]);
    }
  });

  it('accept an empty-directory marker 0:0:. and hints of the allowed characters', async () => {
    // An admin: a locator without a permission signature is refused to others (storage.md §5),
    // and answers carry signed manifests, so the stored text is read from unsigned_manifest_text.
    const u = { client: d.current.root };
    const empty = 'd41d8cd98f00b204e9800998ecf8427e+0';
    for (const [manifest_text, count] of [
      [`. ${empty} 0:0:.\n`, 1],
      [`./a\\040dir ${empty} 0:0:.\n./b ${empty} 0:0:.\n`, 2],
      [`. acbd18db4cc2f85cedef654fccc4a4d8+3+K@zzzzz+Xa_b-9 0:3:d/..e/f.txt\n`, 1],
    ] as const) {
      const res = await u.client.request('POST', '/svc/v1/collections', {
        json: { collection: { manifest_text } },
      });
      expect([res.status, res.body.unsigned_manifest_text, res.body.file_count]).toEqual([
        200,
        manifest_text,
        count,
      ]);
    }
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

  it('count distinct files, and are not found by hash once trashed', async () => {
    const u = await makeUser(d.current);
    const loc = `${createHash('md5').update(`gaps-${Date.now()}-${Math.random()}`).digest('hex')}+3`;
    const manifest = `. ${loc} 0:1:a.txt 1:2:a.txt 0:3:b.txt\n./sub ${loc} 0:3:a.txt\n`;
    const pdh = `${createHash('md5').update(manifest).digest('hex')}+${Buffer.byteLength(manifest)}`;
    const made = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: signManifestFor(d.current, u.token, manifest) } },
    });
    expect([
      made.status,
      made.body.portable_data_hash,
      made.body.file_count,
      made.body.file_size_total,
    ]).toEqual([200, pdh, 3, 9]);
    expect((await u.client.request('GET', `/svc/v1/collections/${pdh}`)).status).toBe(200);
    const trash = await u.client.request('DELETE', `/svc/v1/collections/${made.body.uuid}`);
    expect([trash.status, trash.body.is_trashed]).toEqual([200, true]);
    const byHash = await u.client.request('GET', `/svc/v1/collections/${pdh}`);
    expect(answer(byHash)).toEqual([404, ['Object not found']]);
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
