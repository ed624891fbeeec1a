/**
 * Rules of permissions.md, other-resources.md and auth.md that no other test would catch if they
 * broke. Each test names the contract section it checks.
 */
import { createHash } from 'node:crypto';
import { hmacHex, secretDigest } from '@svc/ids';
import { useDeployment } from '../harness/deployment';
import { login, makeUser } from '../harness/users';

const ANON = 'anonymousTokenForTheGaps00000000000';
const GONE = 'https://gone.example.com';
const d = useDeployment({
  configure: (_id, c) => {
    c['Login'] = {
      Test: {
        Enable: true,
        Users: { alice: { Email: 'alice@example.com', Password: 'alice-pw' } },
      },
      TrustedClients: [GONE],
    };
    c['Users'] = { NewUsersAreActive: true, AnonymousUserToken: ANON };
  },
});
const root = () => d.current.root;
const forbidden = [403, ['Forbidden']];
const answer = (res: { status: number; body: { errors?: unknown } }) => [
  res.status,
  res.body.errors,
];

describe('api_clients (other-resources.md §6, auth.md §7)', () => {
  it('are changed by admins only, and deleting one deletes its tokens', async () => {
    const res = await login(d.current, 'alice', 'alice-pw', { return_to: `${GONE}/cb` });
    expect(res.status).toBe(200);
    const clientUuid = res.body.api_client_uuid as string;
    const token = `v2/${res.body.uuid}/${res.body.api_token}`;
    expect((await d.current.client(token).request('GET', '/svc/v1/users/current')).status).toBe(
      200,
    );
    const u = await makeUser(d.current);
    const update = await u.client.request('PUT', `/svc/v1/api_clients/${clientUuid}`, {
      json: { api_client: { is_trusted: true } },
    });
    expect(answer(update)).toEqual(forbidden);
    expect(answer(await u.client.request('DELETE', `/svc/v1/api_clients/${clientUuid}`))).toEqual(
      forbidden,
    );
    const del = await root().request('DELETE', `/svc/v1/api_clients/${clientUuid}`);
    expect(del.status).toBe(200);
    const record = await root().request(
      'GET',
      `/svc/v1/api_client_authorizations/${res.body.uuid}`,
    );
    const after = await d.current.client(token).request('GET', '/svc/v1/users/current');
    expect({ record: record.status, use: answer(after) }).toEqual({
      record: 404,
      use: [401, ['Not logged in']],
    });
  });
});

describe('tokens (auth.md §2, §3, §5, §6)', () => {
  it('never show the secret in update and delete answers; a scope change applies at once', async () => {
    const u = await makeUser(d.current);
    const made = await u.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: {},
    });
    expect(made.status).toBe(200);
    const t = d.current.client(`v2/${made.body.uuid}/${made.body.api_token}`);
    const path = `/svc/v1/api_client_authorizations/${made.body.uuid}`;
    const narrowed = await u.client.request('PUT', path, {
      json: { api_client_authorization: { scopes: ['GET /'] } },
    });
    expect([narrowed.status, narrowed.body.scopes, narrowed.body.api_token]).toEqual([
      200,
      ['GET /'],
      null,
    ]);
    expect(answer(await t.request('POST', '/svc/v1/workflows', { json: {} }))).toEqual(forbidden);
    expect((await t.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const del = await u.client.request('DELETE', path);
    expect([del.status, del.body.uuid, del.body.api_token]).toEqual([200, made.body.uuid, null]);
  });

  it('accept the anonymous token salted for this cluster, not for another', async () => {
    const here = `v2/home1-gj3su-anonymouspublic/${hmacHex('sha1', ANON, 'home1')}`;
    const anon = d.current.client(here);
    const me = await anon.request('GET', '/svc/v1/users/current');
    expect([me.status, me.body.uuid]).toEqual([200, 'home1-tpzed-anonymouspublic']);
    expect(answer(await anon.request('POST', '/svc/v1/workflows', { json: {} }))).toEqual(
      forbidden,
    );
    const there = `v2/home1-gj3su-anonymouspublic/${hmacHex('sha1', ANON, 'rmt02')}`;
    // Keyed on the token's digest (the old rule), the salted form logs nobody in.
    const fromDigest = `v2/home1-gj3su-anonymouspublic/${hmacHex('sha1', secretDigest(ANON), 'home1')}`;
    const refused = await d.current.client(fromDigest).request('GET', '/svc/v1/users/current');
    expect(answer(refused)).toEqual([401, ['Not logged in']]);
    const other = await d.current.client(there).request('GET', '/svc/v1/users/current');
    expect(answer(other)).toEqual([401, ['Not logged in']]);
  });

  it('answer current for the anonymous token, with its GET / scope', async () => {
    const cur = await d.current
      .client(ANON)
      .request('GET', '/svc/v1/api_client_authorizations/current');
    expect([cur.status, cur.body.errors, cur.body.owner_uuid, cur.body.scopes]).toEqual([
      200,
      undefined,
      'home1-tpzed-anonymouspublic',
      ['GET /'],
    ]);
  });
});

describe('collections (other-resources.md §1)', () => {
  it('count distinct files, and are not found by hash once trashed', async () => {
    const u = await makeUser(d.current);
    const loc = `${createHash('md5').update(`gaps-${Date.now()}-${Math.random()}`).digest('hex')}+3`;
    const manifest = `. ${loc} 0:1:a.txt 1:2:a.txt 0:3:b.txt\n./sub ${loc} 0:3:a.txt\n`;
    const pdh = `${createHash('md5').update(manifest).digest('hex')}+${Buffer.byteLength(manifest)}`;
    const made = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: manifest } },
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
