/**
 * Tokens (auth.md §2–§6): their forms and validity, salting, the anonymous token, token records
 * (api_client_authorizations) and what each user may do with them, and scopes.
 */
import { hmacHex, secretDigest } from '@svc/ids';
import { useDeployment } from '../harness/deployment';
import { answer, forbidden } from '../harness/answers';
import { makeUser } from '../harness/users';

const ANON = 'anonymousTokenForTheTests0000000000';
const d = useDeployment({
  configure: (_id, c) => {
    c['Users'] = { NewUsersAreActive: true, AnonymousUserToken: ANON };
  },
});
const root = () => d.current.root;
const secretOf = (v2: string) => v2.split('/')[2]!;
const uuidOf = (v2: string) => v2.split('/')[1]!;

describe('token forms and validity', () => {
  it('accepts v2 tokens and bare secrets, refuses wrong secrets', async () => {
    const u = await makeUser(d.current);
    for (const token of [u.token, secretOf(u.token)]) {
      const res = await d.current.client(token).request('GET', '/svc/v1/users/current');
      expect([res.status, res.body.uuid]).toEqual([200, u.uuid]);
    }
    for (const token of [
      `${u.token}x`,
      `v2/${uuidOf(u.token)}/nope`,
      'justwrong',
      `v2/zz404-gj3su-000000000000000/${secretOf(u.token)}`,
    ]) {
      const res = await d.current.client(token).request('GET', '/svc/v1/users/current');
      expect([token, res.status, res.body.errors]).toEqual([token, 401, ['Not logged in']]);
    }
  });

  it('stores only a digest of each secret', async () => {
    const u = await makeUser(d.current);
    const core = d.current.running.cores[0]!;
    const { rows } = await core.db.query<Record<string, unknown>>({
      text: 'SELECT * FROM api_client_authorizations WHERE uuid = $1',
      values: [u.tokenUuid],
    });
    expect(JSON.stringify(rows)).not.toContain(secretOf(u.token));
    const got = await root().request('GET', `/svc/v1/api_client_authorizations/${u.tokenUuid}`);
    expect(got.body.api_token).toBeNull();
  });

  it('honours expiry, also when set later', async () => {
    const past = await makeUser(d.current, {}, { expires_at: '2001-01-01T00:00:00Z' });
    expect((await past.client.request('GET', '/svc/v1/users/current')).status).toBe(401);
    const u = await makeUser(d.current, {}, { expires_at: '2999-01-01T00:00:00Z' });
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const expire = await root().request(
      'PATCH',
      `/svc/v1/api_client_authorizations/${u.tokenUuid}`,
      {
        json: { api_client_authorization: { expires_at: '2001-01-01' } },
      },
    );
    expect(expire.status).toBe(200);
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(401);
  });

  it('stops working as soon as the token is deleted', async () => {
    const u = await makeUser(d.current);
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const del = await u.client.request(
      'DELETE',
      `/svc/v1/api_client_authorizations/${u.tokenUuid}`,
    );
    expect(del.status).toBe(200);
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(401);
  });

  it('ends the tokens of a deleted user at once, and their permissions', async () => {
    const u = await makeUser(d.current);
    const p = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'project' } },
    });
    expect(p.status).toBe(200);
    const del = await root().request('DELETE', `/svc/v1/users/${u.uuid}`);
    expect(del.status).toBe(200);
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(401);
    const core = d.current.running.cores[0]!;
    const { rows } = await core.db.query({
      text: 'SELECT 1 FROM materialized_permissions WHERE user_uuid = $1',
      values: [u.uuid],
    });
    expect(rows).toEqual([]);
  });

  it('deletes the links into a deleted user, and the rows they gave (other-resources.md §3)', async () => {
    const [manager, u] = [await makeUser(d.current), await makeUser(d.current)];
    const link = await root().request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_manage',
          tail_uuid: manager.uuid,
          head_uuid: u.uuid,
        },
      },
    });
    expect(link.status).toBe(200);
    const core = d.current.running.cores[0]!;
    const rowsOn = async () =>
      (
        await core.db.query({
          text: 'SELECT user_uuid FROM materialized_permissions WHERE target_uuid = $1',
          values: [u.uuid],
        })
      ).rows;
    expect(await rowsOn()).toEqual([{ user_uuid: manager.uuid }]);
    expect((await root().request('DELETE', `/svc/v1/users/${u.uuid}`)).status).toBe(200);
    expect(await rowsOn()).toEqual([]);
    expect((await root().request('GET', `/svc/v1/links/${link.body.uuid}`)).status).toBe(404);
  });

  it('accepts a token salted for this cluster, and one salted for a remote only on current with remote=', async () => {
    const u = await makeUser(d.current);
    const secret = secretOf(u.token);
    const forHere = `v2/${u.tokenUuid}/${hmacHex('sha1', secret, 'home1')}`;
    expect((await d.current.client(forHere).request('GET', '/svc/v1/users/current')).status).toBe(
      200,
    );
    const forRemote = `v2/${u.tokenUuid}/${hmacHex('sha1', secret, 'rmt02')}`;
    const client = d.current.client(forRemote);
    expect((await client.request('GET', '/svc/v1/users/current')).status).toBe(401);
    expect(
      (await client.request('GET', '/svc/v1/groups', { query: { remote: 'rmt02' } })).status,
    ).toBe(401);
    const cur = await client.request('GET', '/svc/v1/api_client_authorizations/current', {
      query: { remote: 'rmt02' },
    });
    expect([cur.status, cur.body.uuid, cur.body.api_token]).toEqual([200, u.tokenUuid, null]);
    const user = await client.request('GET', '/svc/v1/users/current', {
      query: { remote: 'rmt02' },
    });
    expect([user.status, user.body.uuid]).toEqual([200, u.uuid]);
  });

  it('lets the anonymous token read but never write', async () => {
    for (const token of [
      'anonymousTokenForTheTests0000000000',
      'v2/home1-gj3su-anonymouspublic/anonymousTokenForTheTests0000000000',
    ]) {
      const anon = d.current.client(token);
      const me = await anon.request('GET', '/svc/v1/users/current');
      expect([me.status, me.body.uuid, me.body.is_active]).toEqual([
        200,
        'home1-tpzed-anonymouspublic',
        false,
      ]);
      const write = await anon.request('POST', '/svc/v1/workflows', { json: {} });
      expect([write.status, write.body.errors]).toEqual([403, ['Forbidden']]);
    }
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

describe('api_client_authorizations', () => {
  it('creates tokens with default scopes and returns the secret only then', async () => {
    const u = await makeUser(d.current);
    const created = await u.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: {},
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      owner_uuid: u.uuid,
      scopes: ['all'],
      expires_at: null,
      api_client_uuid: 'home1-ozdt8-000000000000000',
    });
    expect(created.body.api_token).toMatch(/^[0-9a-z]{50}$/);
    const listed = await u.client.request('GET', '/svc/v1/api_client_authorizations');
    expect(listed.body.items.every((t: { api_token: unknown }) => t.api_token === null)).toBe(true);
  });

  it('echoes the presented secret in current', async () => {
    const u = await makeUser(d.current);
    const cur = await u.client.request('GET', '/svc/v1/api_client_authorizations/current');
    expect([cur.status, cur.body.uuid, cur.body.api_token]).toEqual([
      200,
      u.tokenUuid,
      secretOf(u.token),
    ]);
  });

  it('keeps users to their own tokens; root sees all', async () => {
    const a = await makeUser(d.current);
    const b = await makeUser(d.current);
    const aList = await a.client.request('GET', '/svc/v1/api_client_authorizations');
    expect(aList.body.items.map((t: { owner_uuid: string }) => t.owner_uuid)).toEqual([a.uuid]);
    for (const [method, json] of [
      ['GET', undefined],
      ['PUT', { api_client_authorization: { scopes: [] } }],
      ['DELETE', undefined],
    ] as const) {
      const res = await a.client.request(
        method,
        `/svc/v1/api_client_authorizations/${b.tokenUuid}`,
        { json },
      );
      expect([method, res.status, res.body.errors]).toEqual([method, 404, ['Object not found']]);
    }
    expect((await b.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const all = await root().request('GET', '/svc/v1/api_client_authorizations', {
      query: { limit: 1000 },
    });
    const owners = all.body.items.map((t: { owner_uuid: string }) => t.owner_uuid);
    expect(owners).toEqual(expect.arrayContaining([a.uuid, b.uuid]));
  });

  it('lets only admins make tokens for other users', async () => {
    const a = await makeUser(d.current);
    const b = await makeUser(d.current);
    const res = await a.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { owner_uuid: b.uuid } },
    });
    expect([res.status, res.body.errors]).toEqual([
      403,
      ['Forbidden: only admins may create tokens for other users'],
    ]);
    const own = await a.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { owner_uuid: a.uuid } },
    });
    expect(own.status).toBe(200);
  });

  it('refuses api_token assignment and non-string scopes', async () => {
    const a = await makeUser(d.current);
    const token = await a.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { api_token: 'x'.repeat(50) } },
    });
    expect([token.status, token.body.errors]).toEqual([
      422,
      ['api_token assignment not permitted'],
    ]);
    for (const scopes of ['all', [1], [['GET /']]]) {
      const res = await a.client.request('POST', '/svc/v1/api_client_authorizations', {
        json: { api_client_authorization: { scopes } },
      });
      expect([res.status, res.body.errors]).toEqual([422, ['scopes must be an array of strings']]);
    }
  });

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
});

describe('scopes over HTTP', () => {
  let owner: Awaited<ReturnType<typeof makeUser>>;
  beforeAll(async () => {
    owner = await makeUser(d.current);
  });
  /** Another token of the same user, restricted to `scopes`. */
  const scoped = async (scopes: string[]) => {
    const t = await root().request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { owner_uuid: owner.uuid, scopes } },
    });
    return d.current.client(`v2/${t.body.uuid}/${t.body.api_token}`);
  };

  it('enforces the spec example table', async () => {
    const col = await owner.client.request('POST', '/svc/v1/collections', { json: {} });
    const other = await owner.client.request('POST', '/svc/v1/collections', { json: {} });
    const C = `/svc/v1/collections/${col.body.uuid}`;
    const listOnly = await scoped(['GET /svc/v1/collections']);
    expect((await listOnly.request('GET', '/svc/v1/collections')).status).toBe(200);
    expect((await listOnly.request('GET', '/svc/v1/collections/')).status).toBe(200);
    for (const [m, p] of [
      ['POST', '/svc/v1/collections'],
      ['GET', '/svc/v1/groups'],
      ['GET', C],
    ] as const) {
      const res = await listOnly.request(m, p, { json: {} });
      expect([m, p, res.status, res.body.errors]).toEqual([m, p, 403, ['Forbidden']]);
    }
    const records = await scoped(['GET /svc/v1/collections/']);
    expect((await records.request('GET', C)).status).toBe(200);
    expect((await records.request('HEAD', C)).status).toBe(200);
    expect((await records.request('GET', '/svc/v1/collections')).status).toBe(403);
    const one = await scoped([`GET ${C}`]);
    expect((await one.request('GET', C)).status).toBe(200);
    expect((await one.request('GET', `/svc/v1/collections/${other.body.uuid}`)).status).toBe(403);
    expect((await one.request('GET', '/svc/v1/collections')).status).toBe(403);
    const readOnly = await scoped(['GET /']);
    expect((await readOnly.request('GET', '/svc/v1/groups')).status).toBe(200);
    expect((await readOnly.request('POST', '/svc/v1/workflows', { json: {} })).status).toBe(403);
    const patcher = await scoped(['PATCH /svc/v1/workflows/']);
    const wf = await owner.client.request('POST', '/svc/v1/workflows', { json: {} });
    expect(
      (await patcher.request('PUT', `/svc/v1/workflows/${wf.body.uuid}`, { json: {} })).status,
    ).toBe(200);
    const users = await scoped(['GET /svc/v1/users']);
    expect((await users.request('GET', '/svc/v1/users/current')).status).toBe(403);
    const none = await scoped([]);
    expect((await none.request('GET', '/svc/v1/api_client_authorizations/current')).status).toBe(
      200,
    );
    expect((await none.request('GET', '/svc/v1/users/current')).status).toBe(403);
  });

  it('cannot be escaped with overrides, slashes, dots, encodings or query strings', async () => {
    const col = await owner.client.request('POST', '/svc/v1/collections', { json: {} });
    const C = `/svc/v1/collections/${col.body.uuid}`;
    const client = await scoped([`GET ${C}`]);
    const attempts: [string, string, Record<string, unknown>][] = [
      ['POST', C, { query: { _method: 'DELETE' } }],
      ['POST', C, { headers: { 'x-http-method-override': 'PATCH' }, json: {} }],
      ['GET', `${C}/../../groups`, {}],
      ['GET', `${C}/..%2F..%2Fgroups`, {}],
      ['GET', '/svc/v1/collections/..%2Fgroups', {}],
      ['GET', '/svc/v1/groups', { query: { path: C } }],
      ['GET', `/svc/v1/groups?x=${C}`, {}],
      ['GET', `${C}x`, {}],
      ['DELETE', C, {}],
    ];
    for (const [method, path, opts] of attempts) {
      const res = await client.request(method, path, opts);
      expect([method, path, [403, 404].includes(res.status)]).toEqual([method, path, true]);
    }
    expect((await owner.client.request('GET', C)).status).toBe(200);
  });

  it('cannot widen its own scopes', async () => {
    const u = await makeUser(d.current, {}, { scopes: ['GET /'] });
    const res = await u.client.request('PUT', `/svc/v1/api_client_authorizations/${u.tokenUuid}`, {
      json: { api_client_authorization: { scopes: ['all'] } },
    });
    expect(res.status).toBe(403);
    const after = await u.client.request('GET', '/svc/v1/api_client_authorizations/current');
    expect(after.body.scopes).toEqual(['GET /']);
  });

  it('lets a token that may create tokens give them any scopes', async () => {
    const u = await makeUser(
      d.current,
      {},
      {
        scopes: ['GET /svc/v1/api_client_authorizations', 'POST /svc/v1/api_client_authorizations'],
      },
    );
    expect((await u.client.request('GET', '/svc/v1/api_client_authorizations')).status).toBe(200);
    const made = await u.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { scopes: ['all'] } },
    });
    expect([made.status, made.body.scopes]).toEqual([200, ['all']]);
    expect(
      (await u.client.request('GET', `/svc/v1/api_client_authorizations/${u.tokenUuid}`)).status,
    ).toBe(403);
  });
});
