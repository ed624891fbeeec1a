/**
 * The permission model (permissions.md §2, §5–§8): levels through ownership, links and roles,
 * the read and write checks, the owner rules, inactive users and admins.
 */
import { useDeployment } from '../harness/deployment';
import { answer, forbidden, inactive } from '../harness/answers';
import { objectsIn } from '../harness/objects';
import { makeUser, SYSTEM, type TestUser } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;
const { project, role, collection, workflow, grant, levelOn } = objectsIn(d);

describe('the worked examples (permissions.md §5)', () => {
  let X: TestUser, Y: TestUser, R: string, A: string, B: string, C: string, D: string;
  beforeEach(async () => {
    X = await makeUser(d.current);
    Y = await makeUser(d.current);
    R = await role(Y);
    A = await project(Y);
    B = await project(Y, { owner_uuid: A });
    C = await collection(Y, B);
    D = await collection(Y, Y.uuid);
  });

  it('ownership chains give manage all the way down', async () => {
    expect([
      await levelOn(Y, A, 'groups'),
      await levelOn(Y, B, 'groups'),
      await levelOn(Y, C, 'collections'),
    ]).toEqual([3, 3, 2]);
    const del = await Y.client.request('DELETE', `/svc/v1/collections/${C}`);
    expect(del.status).toBe(200);
  });

  it.each([
    ['can_read', 'can_write', 1],
    ['can_write', 'can_read', 1],
    ['can_write', 'can_write', 2],
  ])('X %s R, R %s A gives the minimum along the path: %i', async (xr, ra, level) => {
    await grant(X.uuid, xr, R);
    await grant(R, ra, A);
    expect([await levelOn(X, A, 'groups'), await levelOn(X, B, 'groups')]).toEqual([level, level]);
    expect(await levelOn(X, C, 'collections')).toBe(Math.min(level, 2));
  });

  it('takes the maximum across paths', async () => {
    await grant(X.uuid, 'can_write', R);
    await grant(R, 'can_write', A);
    await grant(X.uuid, 'can_manage', B);
    expect([await levelOn(X, A, 'groups'), await levelOn(X, B, 'groups')]).toEqual([2, 3]);
  });

  it('can_read on a user gives the record only', async () => {
    await grant(X.uuid, 'can_read', Y.uuid);
    expect(await levelOn(X, Y.uuid, 'users')).toBe(1);
    expect(await levelOn(X, D, 'collections')).toBe(0);
  });

  it('can_manage on a user gives everything that user has', async () => {
    const shared = await project(await makeUser(d.current));
    await grant(Y.uuid, 'can_read', shared);
    await grant(X.uuid, 'can_manage', Y.uuid);
    expect(await levelOn(X, D, 'collections')).toBe(2);
    expect(await levelOn(X, A, 'groups')).toBe(3);
    expect(await levelOn(X, shared, 'groups')).toBe(1);
  });

  it('roles give their members nothing about each other', async () => {
    await grant(X.uuid, 'can_write', R);
    await grant(Y.uuid, 'can_write', R);
    const stranger = await makeUser(d.current, { is_active: false });
    await grant(stranger.uuid, 'can_write', R);
    expect(await levelOn(X, stranger.uuid, 'users')).toBe(0);
  });

  it('a role that can read a user shows that user to its members', async () => {
    const inactive = await makeUser(d.current, { is_active: false });
    expect(await levelOn(X, inactive.uuid, 'users')).toBe(0);
    await grant(X.uuid, 'can_read', R);
    await grant(R, 'can_read', inactive.uuid);
    const got = await X.client.request('GET', `/svc/v1/users/${inactive.uuid}`);
    expect(got.status).toBe(404); // inactive users stay out of sight of non-admins
  });

  it('a link from a role helps only its members', async () => {
    await grant(R, 'can_read', C);
    expect(await levelOn(X, C, 'collections')).toBe(0);
    await grant(X.uuid, 'can_read', R);
    expect(await levelOn(X, C, 'collections')).toBe(1);
  });
});

describe('read and write checks', () => {
  it('hides what is not readable (404) and refuses what is not writable (403)', async () => {
    const owner = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const other = await makeUser(d.current);
    const P = await project(owner);
    const C = await collection(owner, P);
    await grant(reader.uuid, 'can_read', P);
    expect((await other.client.request('GET', `/svc/v1/collections/${C}`)).status).toBe(404);
    expect(
      (await other.client.request('PUT', `/svc/v1/collections/${C}`, { json: {} })).status,
    ).toBe(404);
    const list = await other.client.request('GET', '/svc/v1/collections');
    expect(list.body.items.map((i: { uuid: string }) => i.uuid)).not.toContain(C);
    const write = await reader.client.request('PUT', `/svc/v1/collections/${C}`, {
      json: { collection: { name: 'x' } },
    });
    expect([write.status, write.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${C}`],
    ]);
    const del = await reader.client.request('DELETE', `/svc/v1/collections/${C}`);
    expect(del.status).toBe(403);
  });

  it('applies the owner rules on create and move', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const mine = await project(u);
    const theirs = await project(v);
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { owner_uuid: 'home1-j7d0g-zzzzzzzzzzzzzzz' },
        422,
        "owner_uuid 'home1-j7d0g-zzzzzzzzzzzzzzz' not found",
      ],
      [{ owner_uuid: theirs }, 422, `owner_uuid '${theirs}' not found`],
      [
        { owner_uuid: 'home1-j7d0g-fffffffffffffff' },
        422,
        'owner_uuid must be a user or a project',
      ],
    ];
    for (const [attrs, status, message] of cases) {
      const res = await u.client.request('POST', '/svc/v1/collections', {
        json: { collection: attrs },
      });
      expect([res.status, res.body.errors]).toEqual([status, [message]]);
    }
    await grant(u.uuid, 'can_read', theirs);
    const noWrite = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { owner_uuid: theirs } },
    });
    expect([noWrite.status, noWrite.body.errors]).toEqual([
      403,
      ['owner_uuid cannot be set or changed without write permission on new owner'],
    ]);
    const c = await collection(u, mine);
    const move = await u.client.request('PUT', `/svc/v1/collections/${c}`, {
      json: { collection: { owner_uuid: theirs } },
    });
    expect([move.status, move.body.errors]).toEqual([
      403,
      ['owner_uuid cannot be set or changed without write permission on new owner'],
    ]);
    const inV = await collection(v, theirs);
    await grant(u.uuid, 'can_write', inV);
    const out = await u.client.request('PUT', `/svc/v1/collections/${inV}`, {
      json: { collection: { owner_uuid: mine } },
    });
    expect([out.status, out.body.errors]).toEqual([
      403,
      ['owner_uuid cannot be set or changed without write permission on old owner'],
    ]);
    const filter = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'filter', properties: { filters: [] } } },
    });
    const inFilter = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { owner_uuid: filter.body.uuid } },
    });
    expect([inFilter.status, inFilter.body.errors]).toEqual([
      422,
      ['owner_uuid must be a user or a project'],
    ]);
  });

  it('refuses ownership cycles', async () => {
    const u = await makeUser(d.current);
    const top = await project(u);
    const mid = await project(u, { owner_uuid: top });
    const low = await project(u, { owner_uuid: mid });
    for (const owner of [top, low]) {
      const res = await u.client.request('PUT', `/svc/v1/groups/${top}`, {
        json: { group: { owner_uuid: owner } },
      });
      expect([res.status, res.body.errors]).toEqual([
        422,
        ['owner_uuid would create an ownership cycle'],
      ]);
    }
  });

  it('moving a project moves the permissions below it', async () => {
    const u = await makeUser(d.current);
    const w = await makeUser(d.current);
    const shared = await project(u);
    const mine = await project(u);
    const c = await collection(u, mine);
    await grant(w.uuid, 'can_read', shared);
    expect(await levelOn(w, c, 'collections')).toBe(0);
    const move = await u.client.request('PUT', `/svc/v1/groups/${mine}`, {
      json: { group: { owner_uuid: shared } },
    });
    expect(move.status).toBe(200);
    expect(await levelOn(w, c, 'collections')).toBe(1);
    await u.client.request('PUT', `/svc/v1/groups/${mine}`, {
      json: { group: { owner_uuid: u.uuid } },
    });
    expect(await levelOn(w, c, 'collections')).toBe(0);
  });

  it('lets inactive users read but not write, except their own names and prefs', async () => {
    const u = await makeUser(d.current, { is_active: false });
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const create = await u.client.request('POST', '/svc/v1/workflows', { json: {} });
    expect([create.status, create.body.errors]).toEqual([403, ['Forbidden: user is not active']]);
    const own = await u.client.request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { first_name: 'F', prefs: { a: 1 }, is_active: true, is_admin: true } },
    });
    expect([own.status, own.body.first_name, own.body.is_active, own.body.is_admin]).toEqual([
      200,
      'F',
      false,
      false,
    ]);
    const email = await u.client.request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { email: 'new@example.com' } },
    });
    expect([email.status, email.body.errors]).toEqual([
      403,
      ['Forbidden: only admins may change email'],
    ]);
  });

  it('lets admins see and change everything', async () => {
    const u = await makeUser(d.current);
    const admin = await makeUser(d.current, { is_admin: true });
    const p = await project(u);
    expect(
      (
        await admin.client.request('PUT', `/svc/v1/groups/${p}`, {
          json: { group: { name: 'by admin' } },
        })
      ).status,
    ).toBe(200);
  });
});

describe('inactive users (permissions.md §6)', () => {
  it('get 403 "user is not active" on updates and deletes of what they own', async () => {
    const u = await makeUser(d.current);
    const wf = await workflow(u);
    const P = await project(u);
    const off = await root().request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { is_active: false } },
    });
    expect([off.status, off.body.is_active]).toEqual([200, false]);
    expect((await u.client.request('GET', `/svc/v1/workflows/${wf}`)).status).toBe(200);
    const update = await u.client.request('PUT', `/svc/v1/workflows/${wf}`, {
      json: { workflow: { name: 'changed' } },
    });
    expect(answer(update)).toEqual(inactive);
    expect(answer(await u.client.request('DELETE', `/svc/v1/workflows/${wf}`))).toEqual(inactive);
    expect(answer(await u.client.request('DELETE', `/svc/v1/groups/${P}`))).toEqual(inactive);
    const unchanged = await root().request('GET', `/svc/v1/workflows/${wf}`);
    expect([unchanged.status, unchanged.body.name]).toEqual([200, 'wf']);
    const group = await root().request('GET', `/svc/v1/groups/${P}`);
    expect([group.status, group.body.is_trashed]).toEqual([200, false]);
  });
});

describe('owners (permissions.md §2)', () => {
  it('are set by the server for users and permission links; a non-admin cannot move a user', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const P = await project(u);
    const link = await u.client.request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: v.uuid,
          head_uuid: P,
          owner_uuid: u.uuid,
        },
      },
    });
    expect([link.status, link.body.owner_uuid]).toEqual([200, SYSTEM]);
    const user = await root().request('POST', '/svc/v1/users', {
      json: { user: { email: `owned-${Date.now()}@example.com`, owner_uuid: u.uuid } },
    });
    expect([user.status, user.body.owner_uuid]).toEqual([200, SYSTEM]);
    const move = await u.client.request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { owner_uuid: u.uuid } },
    });
    expect(answer(move)).toEqual(forbidden);
    const me = await u.client.request('GET', '/svc/v1/users/current');
    expect(me.body.owner_uuid).toBe(SYSTEM);
  });

  it('are checked on an owner change: missing, unreadable, or not a user or project', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const theirs = await project(v);
    const R = await role(u);
    const mine = await project(u);
    const missing = 'home1-j7d0g-zzzzzzzzzzzzzzz';
    const cases: [string, string][] = [
      [missing, `owner_uuid '${missing}' not found`],
      [theirs, `owner_uuid '${theirs}' not found`],
      [R, 'owner_uuid must be a user or a project'],
    ];
    for (const [owner, message] of cases) {
      const res = await u.client.request('PUT', `/svc/v1/groups/${mine}`, {
        json: { group: { owner_uuid: owner } },
      });
      expect([owner, ...answer(res)]).toEqual([owner, 422, [message]]);
    }
    const still = await u.client.request('GET', `/svc/v1/groups/${mine}`);
    expect(still.body.owner_uuid).toBe(u.uuid);
  });
});

describe('async group writes', () => {
  it('answer 202 with the object, and validation stays synchronous', async () => {
    const u = await makeUser(d.current);
    const res = await u.client.request('POST', '/svc/v1/groups', {
      query: { async: 'true' },
      json: { group: { group_class: 'project', name: 'later' } },
    });
    expect([res.status, res.body.name]).toEqual([202, 'later']);
    const bad = await u.client.request('POST', '/svc/v1/groups', {
      query: { async: 'true' },
      json: { group: { group_class: 'nope' } },
    });
    expect(bad.status).toBe(422);
    const upd = await u.client.request('PUT', `/svc/v1/groups/${res.body.uuid}`, {
      query: { async: true },
      json: { group: { name: 'now' } },
    });
    expect([upd.status, upd.body.name]).toEqual([202, 'now']);
  });
});
