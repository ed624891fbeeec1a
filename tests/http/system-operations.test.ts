/**
 * System tokens, permission queries and the trash-sweep trigger (docs/api/more-resources.md §2, §10,
 * §12).
 */
import { useDeployment } from '../harness/deployment';
import { makeCollection } from '../harness/containers';
import { answer, forbidden } from '../harness/answers';
import { makeUser, SYSTEM } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;

describe('create_system_auth (§2)', () => {
  const path = '/svc/v1/api_client_authorizations/create_system_auth';

  it('gives an admin of a trusted client a new token of the system user', async () => {
    const admin = await makeUser(d.current, { is_admin: true });
    const res = await admin.client.request('POST', path, {
      json: { scopes: ['GET /svc/v1/users/current'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'svc#apiClientAuthorization',
      owner_uuid: SYSTEM,
      scopes: ['GET /svc/v1/users/current'],
      expires_at: null,
      api_client_uuid: 'home1-ozdt8-000000000000000',
      created_by_ip_address: '127.0.0.1',
    });
    const token = d.current.client(`v2/${res.body.uuid}/${res.body.api_token}`);
    const me = await token.request('GET', '/svc/v1/users/current');
    expect([me.status, me.body.uuid]).toEqual([200, SYSTEM]);
    expect((await token.request('GET', '/svc/v1/groups')).status).toBe(403);
    // An ordinary record: only the root token (or the token itself) manages it.
    expect(
      (await admin.client.request('GET', `/svc/v1/api_client_authorizations/${res.body.uuid}`))
        .status,
    ).toBe(404);
    expect(
      (await root().request('GET', `/svc/v1/api_client_authorizations/${res.body.uuid}`)).status,
    ).toBe(200);
    const all = await admin.client.request('POST', path);
    expect(all.body.scopes).toEqual(['all']);
  });

  it('refuses scoped tokens, untrusted clients, non-admins and bad scopes, in that order', async () => {
    const admin = await makeUser(d.current, { is_admin: true }, { scopes: ['GET /'] });
    expect(answer(await admin.client.request('POST', path))).toEqual(forbidden);
    const client = await root().request('POST', '/svc/v1/api_clients', {
      json: { api_client: { name: 'untrusted', url_prefix: 'https://app.example' } },
    });
    const untrusted = await root().request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { owner_uuid: SYSTEM } },
    });
    await d.current.running.cores[0]!.db.query({
      text: 'UPDATE api_client_authorizations SET api_client_uuid = $1 WHERE uuid = $2',
      values: [client.body.uuid, untrusted.body.uuid],
    });
    const viaUntrusted = d.current.client(`v2/${untrusted.body.uuid}/${untrusted.body.api_token}`);
    expect(answer(await viaUntrusted.request('POST', path))).toEqual([
      403,
      ["Forbidden: this API client cannot manipulate other clients' access tokens."],
    ]);
    const user = await makeUser(d.current);
    expect(answer(await user.client.request('POST', path))).toEqual(forbidden);
    expect(answer(await root().request('POST', path, { json: { scopes: ['all', 5] } }))).toEqual([
      422,
      ['scopes must be an array of strings'],
    ]);
  });
});

describe('permission queries (§10)', () => {
  it('get_permissions: every permission link to an object its manager asks about', async () => {
    const owner = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const c = await makeCollection(owner.client);
    const link = async (tail: string, name: string) =>
      (
        await root().request('POST', '/svc/v1/links', {
          json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: c.uuid } },
        })
      ).body.uuid;
    const l1 = await link(reader.uuid, 'can_read');
    const res = await owner.client.request('GET', `/svc/v1/permissions/${c.uuid}`);
    expect(res.body).toMatchObject({
      kind: 'svc#linkList',
      offset: 0,
      limit: 1,
      items_available: 1,
    });
    expect(res.body.items.map((l: any) => l.uuid)).toEqual([l1]);
    const picked = await owner.client.request('GET', `/svc/v1/permissions/${c.uuid}`, {
      query: { select: JSON.stringify(['uuid', 'name']) },
    });
    expect(picked.body.items).toEqual([{ kind: 'svc#link', uuid: l1, name: 'can_read' }]);
    expect(answer(await reader.client.request('GET', `/svc/v1/permissions/${c.uuid}`))).toEqual(
      forbidden,
    );
    const stranger = await makeUser(d.current);
    expect(answer(await stranger.client.request('GET', `/svc/v1/permissions/${c.uuid}`))).toEqual([
      404,
      ['Object not found'],
    ]);
  });

  it('computed_permissions: rows per user and target, admins only, paged by filter', async () => {
    const u = await makeUser(d.current);
    const project = (
      await u.client.request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project' } },
      })
    ).body.uuid;
    const list = (query: Record<string, unknown>, client = root()) =>
      client.request('GET', '/svc/v1/computed_permissions', {
        query: Object.fromEntries(
          Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
        ),
      });
    const mine = await list({ filters: [['user_uuid', '=', u.uuid]] });
    expect(mine.status).toBe(200);
    expect(Object.keys(mine.body).sort()).toEqual(['items', 'kind', 'limit']);
    expect(mine.body.kind).toBe('svc#computedPermissionList');
    expect(mine.body.items).toEqual(
      expect.arrayContaining([
        {
          kind: 'svc#computedPermission',
          user_uuid: u.uuid,
          target_uuid: u.uuid,
          perm_level: 'can_manage',
        },
        {
          kind: 'svc#computedPermission',
          user_uuid: u.uuid,
          target_uuid: project,
          perm_level: 'can_manage',
        },
      ]),
    );
    const targets = mine.body.items.map((i: any) => i.target_uuid);
    expect(targets).toEqual([...targets].sort());
    const desc = await list({
      filters: [['user_uuid', '=', u.uuid]],
      order: ['target_uuid desc'],
      limit: 1,
    });
    expect([desc.body.limit, desc.body.items.map((i: any) => i.target_uuid)]).toEqual([
      1,
      [targets[targets.length - 1]],
    ]);
    const page = await list({
      filters: [
        ['user_uuid', 'in', [u.uuid]],
        ['target_uuid', '>', targets[0]],
      ],
      select: ['target_uuid'],
    });
    expect(page.body.items).toEqual(
      targets.slice(1).map((t: string) => ({ kind: 'svc#computedPermission', target_uuid: t })),
    );
    const where = await list({ where: { user_uuid: u.uuid } });
    expect(where.body.items).toHaveLength(targets.length);
    expect(answer(await list({ filters: [['perm_level', '=', 'can_read']] }))).toEqual([
      422,
      ["Invalid attribute 'perm_level' in filter"],
    ]);
    expect(answer(await list({ filters: [['user_uuid', 'like', 'x%']] }))).toEqual([
      422,
      ["Invalid attribute 'user_uuid' for operator 'like' in filter"],
    ]);
    expect(answer(await list({ order: ['perm_level'] }))).toEqual([
      422,
      ["Invalid order attribute 'perm_level'"],
    ]);
    expect(answer(await list({ count: 'exact' }))).toEqual([
      422,
      ["count parameter must be 'none'"],
    ]);
    expect(answer(await list({ offset: '2' }))).toEqual([
      422,
      ['non-zero offset parameter 2 is not supported'],
    ]);
    expect((await list({ count: 'none', offset: '0' })).status).toBe(200);
    expect(answer(await list({}, u.client))).toEqual(forbidden);
    expect((await list({}, d.current.client(null))).status).toBe(401);
  });
});

describe('the trash-sweep trigger (§12)', () => {
  it('runs a pass now for admins and answers 204 at both paths', async () => {
    const soon = new Date(Date.now() + 300).toISOString();
    const c = await makeCollection(root(), { trash_at: soon });
    const token = await root().request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { owner_uuid: SYSTEM, expires_at: soon } },
    });
    await new Promise((r) => setTimeout(r, 500));
    const res = await root().request('POST', '/sys/trash_sweep');
    expect([res.status, res.text]).toEqual([204, '']);
    const again = await root().request('POST', '/svc/v1/sys/trash_sweep');
    expect(again.status).toBe(204);
    expect((await root().request('GET', `/svc/v1/collections/${c.uuid}`)).status).toBe(404);
    const { rows } = await d.current.running.cores[0]!.db.query({
      text: 'SELECT 1 FROM api_client_authorizations WHERE uuid = $1',
      values: [token.body.uuid],
    });
    expect(rows).toEqual([]);
  });

  it('needs an admin token whose scopes name the path used; other methods are 405', async () => {
    const u = await makeUser(d.current);
    expect(answer(await u.client.request('POST', '/sys/trash_sweep'))).toEqual(forbidden);
    expect(answer(await d.current.client(null).request('POST', '/sys/trash_sweep'))).toEqual([
      401,
      ['Not logged in'],
    ]);
    const scoped = await makeUser(
      d.current,
      { is_admin: true },
      { scopes: ['POST /svc/v1/sys/trash_sweep'] },
    );
    expect((await scoped.client.request('POST', '/svc/v1/sys/trash_sweep')).status).toBe(204);
    expect(answer(await scoped.client.request('POST', '/sys/trash_sweep'))).toEqual(forbidden);
    expect(answer(await root().request('GET', '/sys/trash_sweep'))).toEqual([
      405,
      ['Method not allowed'],
    ]);
    expect(answer(await root().request('GET', '/svc/v1/users/setup'))).toEqual([
      405,
      ['Method not allowed'],
    ]);
    expect(answer(await root().request('POST', '/svc/v1/computed_permissions'))).toEqual([
      405,
      ['Method not allowed'],
    ]);
  });
});
