/**
 * Merging users (docs/api/more-resources.md §5.6), automatic setup of new users (§5.1) and usernames
 * never given at login (§15): one deployment with AutoSetupNewUsers on.
 */
import { useDeployment } from '../harness/deployment';
import { makeCollection } from '../harness/containers';
import { answer } from '../harness/answers';
import { sshPublicKey } from '../harness/ssh-keys';
import { login, makeUser } from '../harness/users';

const VM = 'home1-2x53u-autosetupvm0001';
const PASSWORD = 'merge-test-password';
const d = useDeployment({
  configure: (_id, section) => {
    section['Users'] = { AutoSetupNewUsers: true, AutoSetupNewUsersWithVmUUID: VM };
    section['Login'] = {
      Test: {
        Enable: true,
        Users: {
          root: { Email: 'root@merge.example', Password: PASSWORD },
          olduser: { Email: 'old@merge.example', Password: PASSWORD },
        },
      },
    };
  },
});
const root = () => d.current.root;
const ALL_USERS = 'home1-j7d0g-fffffffffffffff';

beforeAll(async () => {
  const vm = await root().request('POST', '/svc/v1/virtual_machines', {
    json: { virtual_machine: { uuid: VM, hostname: 'auto.example' } },
  });
  expect(vm.status).toBe(200);
});

const merge = (params: Record<string, unknown>, client = root()) =>
  client.request('POST', '/svc/v1/users/merge', { json: params });
const links = async (filters: unknown[]) =>
  (
    await root().request('GET', '/svc/v1/links', {
      query: { filters: JSON.stringify(filters), limit: 1000 },
    })
  ).body.items;
const ownerOf = async (type: string, uuid: string) =>
  (await root().request('GET', `/svc/v1/${type}/${uuid}`, { query: { include_trash: 'true' } }))
    .body.owner_uuid;

describe('new users (§5.1, §15)', () => {
  it('a local user created while AutoSetupNewUsers is on is set up, not activated', async () => {
    const res = await root().request('POST', '/svc/v1/users', {
      json: { user: { email: `auto${Date.now()}@example.com`, username: `auto${Date.now()}` } },
    });
    expect([res.status, res.body.is_active, res.body.is_invited]).toEqual([200, false, true]);
    const logins = await links([
      ['tail_uuid', '=', res.body.uuid],
      ['name', '=', 'can_login'],
    ]);
    expect(logins.map((l: any) => [l.head_uuid, l.properties])).toEqual([
      [VM, { username: res.body.username }],
    ]);
    expect(
      await links([
        ['tail_uuid', '=', res.body.uuid],
        ['head_uuid', '=', ALL_USERS],
      ]),
    ).toHaveLength(1);
  });

  it('logins never get a blacklisted username', async () => {
    const res = await login(d.current, 'root', PASSWORD);
    expect(res.status).toBe(200);
    const me = await d.current
      .client(`v2/${res.body.uuid}/${res.body.api_token}`)
      .request('GET', '/svc/v1/users/current');
    expect(me.body.username).toBe('root2');
  });
});

/** A user with a bit of everything: a project with a collection, a home collection, shares, tokens, a key. */
async function populated(name: string) {
  const u = await makeUser(d.current, { username: `${name}${Date.now()}` });
  const project = (
    await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'project', name: `${name} project` } },
    })
  ).body.uuid as string;
  const inner = await makeCollection(u.client, { owner_uuid: project, name: 'inner' });
  const home = await makeCollection(u.client, { name: `${name} home` });
  const key = (
    await u.client.request('POST', '/svc/v1/authorized_keys', {
      json: { authorized_key: { public_key: sshPublicKey() } },
    })
  ).body.uuid as string;
  return { u, project, inner: inner.uuid, home: home.uuid, key };
}

describe('merge (§5.6)', () => {
  it('checks its parameters in the contract order', async () => {
    const a = await makeUser(d.current);
    const b = await makeUser(d.current);
    const scoped = await makeUser(d.current, {}, { scopes: ['POST /svc/v1/users/merge'] });
    const missing = 'home1-tpzed-0000000000nosuch';
    expect(
      answer(
        await merge(
          { old_user_uuid: a.uuid, new_user_uuid: b.uuid, new_owner_uuid: b.uuid },
          a.client,
        ),
      ),
    ).toEqual([403, ['Must be admin to use old_user_uuid/new_user_uuid']]);
    expect(answer(await merge({ old_user_uuid: a.uuid, new_owner_uuid: b.uuid }))).toEqual([
      422,
      ['Must supply both old_user_uuid and new_user_uuid'],
    ]);
    expect(
      answer(
        await merge({ old_user_uuid: a.uuid, new_user_uuid: missing, new_owner_uuid: b.uuid }),
      ),
    ).toEqual([422, ['User in new_user_uuid not found']]);
    expect(
      answer(
        await merge({ old_user_uuid: missing, new_user_uuid: b.uuid, new_owner_uuid: b.uuid }),
      ),
    ).toEqual([422, ['User in old_user_uuid not found']]);
    expect(
      answer(await merge({ new_user_token: b.token, new_owner_uuid: b.uuid }, scoped.client)),
    ).toEqual([403, ['cannot merge with a scoped token']]);
    expect(
      answer(
        await merge(
          { new_user_token: 'v2/home1-gj3su-000000000000nop/nope', new_owner_uuid: b.uuid },
          a.client,
        ),
      ),
    ).toEqual([401, ['invalid new_user_token']]);
    expect(answer(await merge({ new_owner_uuid: b.uuid }, a.client))).toEqual([
      401,
      ['invalid new_user_token'],
    ]);
    const restricted = await makeUser(d.current, {}, { scopes: ['GET /'] });
    expect(
      answer(
        await merge(
          { new_user_token: restricted.token, new_owner_uuid: restricted.uuid },
          a.client,
        ),
      ),
    ).toEqual([403, ['supplied new_user_token has restricted scope']]);
    expect(
      answer(await merge({ new_user_token: a.token, new_owner_uuid: a.uuid }, a.client)),
    ).toEqual([422, ['cannot merge user to self']]);
    expect(answer(await merge({ new_user_token: b.token }, a.client))).toEqual([
      422,
      ['missing new_owner_uuid'],
    ]);
    expect(
      answer(await merge({ new_user_token: b.token, new_owner_uuid: a.uuid }, a.client)),
    ).toEqual([
      403,
      ['cannot move objects into supplied new_owner_uuid: new user does not have write permission'],
    ]);
  });

  it('with redirect: everything moves to the new user, the old one becomes its alias', async () => {
    const old = await populated('old');
    const neu = await populated('new');
    const shared = (
      await root().request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project', name: `shared ${Date.now()}` } },
      })
    ).body.uuid;
    const grant = (tail: string, name: string) =>
      root().request('POST', '/svc/v1/links', {
        json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: shared } },
      });
    await grant(old.u.uuid, 'can_write');
    await grant(neu.u.uuid, 'can_read');
    const watcher = await makeUser(d.current);
    const watch = await root().request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_manage',
          tail_uuid: watcher.uuid,
          head_uuid: old.u.uuid,
        },
      },
    });
    const target = (
      await neu.u.client.request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project', name: 'merged in' } },
      })
    ).body.uuid;
    const res = await merge(
      { new_user_token: neu.u.token, new_owner_uuid: target, redirect_to_new_user: true },
      old.u.client,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: old.u.uuid, username: null });
    // Ownership: the project and the home collection move; the project's contents stay in it.
    expect(await ownerOf('groups', old.project)).toBe(target);
    expect(await ownerOf('collections', old.home)).toBe(target);
    expect(await ownerOf('collections', old.inner)).toBe(old.project);
    expect(await ownerOf('groups', neu.project)).toBe(neu.u.uuid);
    // Permission links: the old user's tail and head become the new user's; the lower duplicate goes.
    const onShared = await links([['head_uuid', '=', shared]]);
    expect(onShared.map((l: any) => [l.tail_uuid, l.name])).toEqual([[neu.u.uuid, 'can_write']]);
    expect((await links([['uuid', '=', watch.body.uuid]]))[0].head_uuid).toBe(neu.u.uuid);
    expect(await links([['tail_uuid', '=', old.u.uuid]])).toEqual([]);
    // Keys and tokens: now the new user's; the old token acts as the new user.
    const key = (await root().request('GET', `/svc/v1/authorized_keys/${old.key}`)).body;
    expect([key.owner_uuid, key.authorized_user_uuid]).toEqual([neu.u.uuid, neu.u.uuid]);
    const me = await old.u.client.request('GET', '/svc/v1/users/current');
    expect([me.status, me.body.uuid]).toEqual([200, neu.u.uuid]);
    const token = await root().request(
      'GET',
      `/svc/v1/api_client_authorizations/${old.u.tokenUuid}`,
    );
    expect(token.body.owner_uuid).toBe(neu.u.uuid);
    // The merged user is gone from lists and gets, for admins too.
    expect((await root().request('GET', `/svc/v1/users/${old.u.uuid}`)).status).toBe(404);
    const listed = await root().request('GET', '/svc/v1/users', {
      query: { filters: JSON.stringify([['uuid', '=', old.u.uuid]]) },
    });
    expect(listed.body.items).toEqual([]);
    // Permissions follow: the new user writes in the moved project; the watcher now manages the new user.
    const write = await neu.u.client.request('PUT', `/svc/v1/groups/${old.project}`, {
      json: { group: { description: 'mine now' } },
    });
    expect(write.status).toBe(200);
    const seen = await watcher.client.request('GET', `/svc/v1/users/${neu.u.uuid}`);
    expect([seen.status, seen.body.can_manage]).toEqual([200, true]);
    // Once merged, no more merging either way.
    const third = await makeUser(d.current);
    expect(
      answer(
        await merge({
          old_user_uuid: old.u.uuid,
          new_user_uuid: third.uuid,
          new_owner_uuid: third.uuid,
        }),
      ),
    ).toEqual([422, ['cannot merge an already merged user']]);
    expect(
      answer(
        await merge({
          old_user_uuid: third.uuid,
          new_user_uuid: old.u.uuid,
          new_owner_uuid: old.u.uuid,
        }),
      ),
    ).toEqual([422, ['cannot merge to an already merged user']]);
  });

  it('without redirect: tokens and keys go, links and objects move', async () => {
    const old = await populated('gone');
    const neu = await makeUser(d.current);
    const res = await merge({
      old_user_uuid: old.u.uuid,
      new_user_uuid: neu.uuid,
      new_owner_uuid: neu.uuid,
    });
    expect([res.status, res.body.uuid]).toEqual([200, old.u.uuid]);
    expect(res.body.username).not.toBeNull();
    expect((await old.u.client.request('GET', '/svc/v1/users/current')).status).toBe(401);
    expect((await root().request('GET', `/svc/v1/authorized_keys/${old.key}`)).status).toBe(404);
    expect(await ownerOf('groups', old.project)).toBe(neu.uuid);
    expect(await links([['tail_uuid', '=', old.u.uuid]])).toEqual([]);
    expect((await root().request('GET', `/svc/v1/users/${old.u.uuid}`)).status).toBe(200);
  });

  it('a name clash in new_owner_uuid stops it whole', async () => {
    const old = await populated('clash');
    const neu = await makeUser(d.current);
    await neu.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'project', name: 'clash project' } },
    });
    const res = await merge({
      old_user_uuid: old.u.uuid,
      new_user_uuid: neu.uuid,
      new_owner_uuid: neu.uuid,
    });
    expect(answer(res)).toEqual([
      422,
      [
        `duplicate key value violates unique constraint: group named 'clash project' already exists in '${neu.uuid}'`,
      ],
    ]);
    expect(await ownerOf('collections', old.home)).toBe(old.u.uuid);
    expect((await old.u.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
  });

  it('a login that matches a merged user logs in as the user it was merged into; logins leave it out', async () => {
    const first = await login(d.current, 'olduser', PASSWORD);
    const oldUuid = first.body.owner_uuid as string;
    const neu = await makeUser(d.current, { username: `target${Date.now()}` });
    await root().request('POST', `/svc/v1/users/${oldUuid}/activate`);
    const res = await merge({
      old_user_uuid: oldUuid,
      new_user_uuid: neu.uuid,
      new_owner_uuid: neu.uuid,
      redirect_to_new_user: true,
    });
    expect(res.status).toBe(200);
    const again = await login(d.current, 'olduser', PASSWORD);
    expect(again.body.owner_uuid).toBe(neu.uuid);
    const logins = (await root().request('GET', `/svc/v1/virtual_machines/${VM}/logins`)).body
      .items;
    expect(logins.map((l: any) => l.user_uuid)).not.toContain(oldUuid);
  });
});
