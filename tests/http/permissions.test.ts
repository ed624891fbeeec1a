import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;

async function project(by: TestUser, attrs: Record<string, unknown> = {}) {
  const res = await by.client.request('POST', '/svc/v1/groups', {
    json: { group: { group_class: 'project', ...attrs } },
  });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
}
async function role(by: TestUser) {
  const res = await by.client.request('POST', '/svc/v1/groups', {
    json: { group: { group_class: 'role' } },
  });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
}
async function collection(by: TestUser, owner: string) {
  const res = await by.client.request('POST', '/svc/v1/collections', {
    json: { collection: { owner_uuid: owner } },
  });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
}
/** A permission link, made by root (which manages everything). */
async function grant(tail: string, name: string, head: string) {
  const res = await root().request('POST', '/svc/v1/links', {
    json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: head } },
  });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
  return res.body.uuid as string;
}
/** 0 none, 1 read, 2 write, 3 manage — as the API reveals them. */
async function levelOn(u: TestUser, uuid: string, type: string): Promise<number> {
  const got = await u.client.request('GET', `/svc/v1/${type}/${uuid}`);
  if (got.status === 404) return 0;
  expect(got.status).toBe(200);
  if (type === 'groups' || type === 'users')
    return got.body.can_manage ? 3 : got.body.can_write ? 2 : 1;
  const write = await u.client.request('PUT', `/svc/v1/${type}/${uuid}`, { json: {} });
  return write.status === 200 ? 2 : 1;
}

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

describe('permission links', () => {
  it('need manage on the head, and merge duplicates', async () => {
    const owner = await makeUser(d.current);
    const writer = await makeUser(d.current);
    const other = await makeUser(d.current);
    const p = await project(owner);
    await grant(writer.uuid, 'can_write', p);
    const attempt = await writer.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([attempt.status, attempt.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${p}`],
    ]);
    const first = await owner.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([first.status, first.body.owner_uuid]).toEqual([200, 'home1-tpzed-000000000000000']);
    const lower = await owner.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([lower.body.uuid, lower.body.name]).toEqual([first.body.uuid, 'can_read']);
    const higher = await owner.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_manage', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([higher.status, higher.body.uuid, higher.body.name]).toEqual([
      200,
      first.body.uuid,
      'can_manage',
    ]);
    expect(await levelOn(other, p, 'groups')).toBe(3);
  });

  it('allow only the level to change', async () => {
    const owner = await makeUser(d.current);
    const other = await makeUser(d.current);
    const p = await project(owner);
    const link = await grant(other.uuid, 'can_read', p);
    const bad = await owner.client.request('PUT', `/svc/v1/links/${link}`, {
      json: { link: { tail_uuid: owner.uuid } },
    });
    expect([bad.status, bad.body.errors]).toEqual([422, ['Can only alter permission link level']]);
    const level = await owner.client.request('PUT', `/svc/v1/links/${link}`, {
      json: { link: { name: 'can_write' } },
    });
    expect([level.status, level.body.name]).toEqual([200, 'can_write']);
    expect(await levelOn(other, p, 'groups')).toBe(2);
    const del = await owner.client.request('DELETE', `/svc/v1/links/${link}`);
    expect(del.status).toBe(200);
    expect(await levelOn(other, p, 'groups')).toBe(0);
  });

  it('validate name, tail and head', async () => {
    const owner = await makeUser(d.current);
    const p = await project(owner);
    const other = await project(owner);
    const cases: [Record<string, unknown>, string][] = [
      [
        { name: 'can_fly', tail_uuid: owner.uuid, head_uuid: p },
        "name 'can_fly' is invalid permission, must be one of 'can_read', 'can_write', 'can_manage', 'can_login'",
      ],
      [
        { name: 'can_read', tail_uuid: other, head_uuid: p },
        'tail_uuid must be a user or role, was group with group_class project',
      ],
      [
        { name: 'can_read', tail_uuid: 'home1-tpzed-zzzzzzzzzzzzzzz', head_uuid: p },
        "tail_uuid 'home1-tpzed-zzzzzzzzzzzzzzz' not found",
      ],
      [
        { name: 'can_read', tail_uuid: owner.uuid, head_uuid: 'home1-4zz18-zzzzzzzzzzzzzzz' },
        "head_uuid 'home1-4zz18-zzzzzzzzzzzzzzz' not found",
      ],
    ];
    for (const [attrs, message] of cases) {
      const res = await owner.client.request('POST', '/svc/v1/links', {
        json: { link: { link_class: 'permission', ...attrs } },
      });
      expect([res.status, res.body.errors]).toEqual([422, [message]]);
    }
  });

  it('are visible to their tail, their head and whoever manages the head', async () => {
    const owner = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const outsider = await makeUser(d.current);
    const p = await project(owner);
    const link = await grant(reader.uuid, 'can_read', p);
    const userLink = await grant(owner.uuid, 'can_read', outsider.uuid);
    for (const [who, uuid, status] of [
      [owner, link, 200],
      [reader, link, 200],
      [outsider, link, 404],
      [outsider, userLink, 200],
      [owner, userLink, 200],
      [reader, userLink, 404],
    ] as const) {
      expect([uuid, (await who.client.request('GET', `/svc/v1/links/${uuid}`)).status]).toEqual([
        uuid,
        status,
      ]);
    }
  });
});

describe('roles', () => {
  it('are owned by the system user, managed by their creator, readable by active users', async () => {
    const creator = await makeUser(d.current);
    const member = await makeUser(d.current);
    const res = await creator.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'role', name: 'r', owner_uuid: creator.uuid } },
    });
    expect([res.status, res.body.owner_uuid, res.body.can_manage]).toEqual([
      200,
      'home1-tpzed-000000000000000',
      true,
    ]);
    const seen = await member.client.request('GET', `/svc/v1/groups/${res.body.uuid}`);
    expect([seen.status, seen.body.can_write]).toEqual([200, false]);
    const update = await member.client.request('PUT', `/svc/v1/groups/${res.body.uuid}`, {
      json: { group: { name: 'x' } },
    });
    expect([update.status, update.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${res.body.uuid}`],
    ]);
    const inRole = await member.client.request('POST', '/svc/v1/workflows', {
      json: { workflow: { owner_uuid: res.body.uuid } },
    });
    expect([inRole.status, inRole.body.errors]).toEqual([
      422,
      ['owner_uuid must be a user or a project'],
    ]);
  });

  it('lose their outgoing links when trashed, and their members keep their visibility', async () => {
    const owner = await makeUser(d.current);
    const member = await makeUser(d.current);
    const r = await role(owner);
    const p = await project(owner);
    await grant(member.uuid, 'can_read', r);
    const shared = await grant(r, 'can_read', p);
    expect(await levelOn(member, p, 'groups')).toBe(1);
    const trash = await owner.client.request('DELETE', `/svc/v1/groups/${r}`);
    expect(trash.status).toBe(200);
    expect(await levelOn(member, p, 'groups')).toBe(0);
    expect((await root().request('GET', `/svc/v1/links/${shared}`)).status).toBe(404);
    expect((await owner.client.request('GET', `/svc/v1/users/${member.uuid}`)).status).toBe(200);
  });
});

describe('can_write, can_manage and writable_by (permissions.md §10)', () => {
  it('follow the example', async () => {
    const O = await makeUser(d.current);
    const W = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const P = await project(O);
    await grant(W.uuid, 'can_write', P);
    await grant(reader.uuid, 'can_read', P);
    const view = async (u: TestUser) => {
      const g = await u.client.request('GET', `/svc/v1/groups/${P}`);
      return [g.body.can_write, g.body.can_manage, g.body.writable_by];
    };
    expect(await view(O)).toEqual([true, true, [O.uuid, W.uuid]]);
    expect(await view(W)).toEqual([true, false, [O.uuid, W.uuid]]);
    expect(await view(reader)).toEqual([false, false, [O.uuid]]);
  });

  it('lists the managing role on a user record', async () => {
    const U = await makeUser(d.current);
    const owner = await makeUser(d.current);
    const R = await role(owner);
    await grant(R, 'can_manage', U.uuid);
    const me = await U.client.request('GET', '/svc/v1/users/current');
    expect(me.body.writable_by).toEqual(['home1-tpzed-000000000000000', U.uuid, R]);
  });
});

describe('users as non-admins see them', () => {
  it('shows active users with few attributes, and oneself in full', async () => {
    const me = await makeUser(d.current, { first_name: 'Me', prefs: { p: 1 } });
    const other = await makeUser(d.current, { first_name: 'Other' });
    const inactive = await makeUser(d.current, { is_active: false });
    const them = await me.client.request('GET', `/svc/v1/users/${other.uuid}`);
    expect(Object.keys(them.body).sort()).toEqual(
      [
        'kind',
        'uuid',
        'owner_uuid',
        'email',
        'username',
        'first_name',
        'last_name',
        'full_name',
        'is_active',
        'is_admin',
        'is_invited',
        'can_write',
        'can_manage',
      ].sort(),
    );
    const self = await me.client.request('GET', `/svc/v1/users/${me.uuid}`);
    expect(self.body.prefs).toEqual({ p: 1 });
    const list = await me.client.request('GET', '/svc/v1/users', { query: { limit: 1000 } });
    const uuids = list.body.items.map((u: { uuid: string }) => u.uuid);
    expect(uuids).toEqual(expect.arrayContaining([me.uuid, other.uuid]));
    expect(uuids).not.toContain(inactive.uuid);
  });

  it('joins and leaves the all-users group with activation', async () => {
    const u = await makeUser(d.current, { is_active: false });
    const watcher = await makeUser(d.current);
    expect((await watcher.client.request('GET', `/svc/v1/users/${u.uuid}`)).status).toBe(404);
    await root().request('PUT', `/svc/v1/users/${u.uuid}`, { json: { user: { is_active: true } } });
    expect((await watcher.client.request('GET', `/svc/v1/users/${u.uuid}`)).status).toBe(200);
    await root().request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { is_active: false } },
    });
    expect((await watcher.client.request('GET', `/svc/v1/users/${u.uuid}`)).status).toBe(404);
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
