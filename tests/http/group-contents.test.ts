/**
 * groups.contents (groups.md §3): targets, types in their fixed order, paging over the
 * concatenation, type-qualified filters, order and select, include, recursive, trash.
 */
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';
import { objectsIn } from '../harness/objects';

const d = useDeployment();
const { grant } = objectsIn(d);

type Item = { uuid: string; kind: string; [k: string]: unknown };

async function make(u: TestUser, type: string, attrs: Record<string, unknown>): Promise<string> {
  const singular = type.slice(0, -1);
  const res = await u.client.request('POST', `/svc/v1/${type}`, { json: { [singular]: attrs } });
  expect([type, res.status, res.body.errors]).toEqual([type, 200, undefined]);
  return res.body.uuid as string;
}

const contentsOf = (u: TestUser, query: Record<string, unknown>) =>
  u.client.request('GET', '/svc/v1/groups/contents', { query });
const uuids = (res: { body: { items: Item[] } }) => res.body.items.map((i) => i.uuid);
const errorsOf = (res: { status: number; body: { errors?: string[] } }) => [
  res.status,
  res.body.errors,
];

describe('the paging example of groups.md §3', () => {
  let U: TestUser, P: string, G1: string, G2: string, R1: string;
  let C1: string, C2: string, C3: string;
  beforeAll(async () => {
    U = await makeUser(d.current);
    P = await make(U, 'groups', { name: 'P', group_class: 'project' });
    // Made in this order, so by modified_at desc: G2 before G1, C3 before C2 before C1.
    G1 = await make(U, 'groups', { name: 'G1', group_class: 'project', owner_uuid: P });
    G2 = await make(U, 'groups', { name: 'G2', group_class: 'project', owner_uuid: P });
    R1 = await make(U, 'container_requests', {
      name: 'R1',
      owner_uuid: P,
      container_image: 'img',
      cwd: '/',
      command: ['true'],
      output_path: '/out',
      mounts: { '/out': { kind: 'tmp', capacity: 1000 } },
    });
    C1 = await make(U, 'collections', { name: 'C1', owner_uuid: P });
    C2 = await make(U, 'collections', { name: 'C2', owner_uuid: P });
    C3 = await make(U, 'collections', { name: 'C3', owner_uuid: P });
  });

  it('pages the concatenation of groups, requests, workflows and collections', async () => {
    const all = [G2, G1, R1, C3, C2, C1];
    for (const offset of [0, 2, 4, 6, 12345]) {
      const res = await contentsOf(U, { uuid: P, limit: 2, offset });
      expect([offset, res.status, res.body.kind, res.body.items_available]).toEqual([
        offset,
        200,
        'svc#objectList',
        6,
      ]);
      expect([offset, uuids(res)]).toEqual([offset, all.slice(offset, offset + 2)]);
      expect([res.body.offset, res.body.limit]).toEqual([offset, 2]);
    }
    const res = await contentsOf(U, { uuid: P });
    expect([uuids(res), res.body.limit, 'included' in res.body]).toEqual([all, 100, false]);
    expect(res.body.items.map((i: Item) => i.kind)).toEqual([
      'svc#group',
      'svc#group',
      'svc#containerRequest',
      'svc#collection',
      'svc#collection',
      'svc#collection',
    ]);
  });

  it('answers the same at groups/<uuid>/contents', async () => {
    const a = await contentsOf(U, { uuid: P, limit: 3, offset: 1 });
    const b = await U.client.request('GET', `/svc/v1/groups/${P}/contents`, {
      query: { limit: 3, offset: 1 },
    });
    expect([b.status, b.body]).toEqual([200, a.body]);
  });

  it('limits the types with is_a', async () => {
    const res = await contentsOf(U, {
      uuid: P,
      filters: [['uuid', 'is_a', 'svc#collection']],
    });
    expect([uuids(res), res.body.items_available]).toEqual([[C3, C2, C1], 3]);
    const two = await contentsOf(U, {
      uuid: P,
      filters: [['uuid', 'is_a', ['svc#group', 'svc#containerRequest']]],
    });
    expect(uuids(two)).toEqual([G2, G1, R1]);
    const none = await contentsOf(U, { uuid: P, filters: [['uuid', 'is_a', 'svc#link']] });
    expect([none.status, uuids(none), none.body.items_available]).toEqual([200, [], 0]);
  });

  it('applies a type-qualified condition to its type only', async () => {
    const res = await contentsOf(U, { uuid: P, filters: [['collections.name', '=', 'C2']] });
    expect([uuids(res), res.body.items_available]).toEqual([[G2, G1, R1, C2], 4]);
    const groupsOnly = await contentsOf(U, { uuid: P, filters: [['groups.name', '=', 'G1']] });
    expect(uuids(groupsOnly)).toEqual([G1, R1, C3, C2, C1]);
  });

  it('applies container.<attr> to container requests only', async () => {
    const res = await contentsOf(U, {
      uuid: P,
      filters: [['container.state', '=', 'Running']],
    });
    expect(uuids(res)).toEqual([G2, G1, C3, C2, C1]);
    const secret = await contentsOf(U, {
      uuid: P,
      filters: [['container.runtime_token', '=', 'x']],
    });
    expect(errorsOf(secret)).toEqual([422, ["Invalid attribute 'runtime_token' in filter"]]);
  });

  it('refuses other qualifiers and empty parts', async () => {
    for (const attr of ['links.name', 'container_requests.', '.requesting_container_uuid']) {
      const res = await contentsOf(U, { uuid: P, filters: [[attr, '=', 'x']] });
      expect([attr, ...errorsOf(res)]).toEqual([
        attr,
        422,
        [`Invalid attribute '${attr}' in filter`],
      ]);
    }
    const bad = await contentsOf(U, { uuid: P, filters: [['collections.nonesuch', '=', 'x']] });
    expect(errorsOf(bad)).toEqual([422, ["Invalid attribute 'nonesuch' in filter"]]);
  });

  it('leaves out the types an unqualified condition is invalid for', async () => {
    const res = await contentsOf(U, {
      uuid: P,
      filters: [['portable_data_hash', '!=', 'x']],
    });
    expect([uuids(res), res.body.items_available]).toEqual([[C3, C2, C1], 3]);
    const subproperty = await contentsOf(U, {
      uuid: P,
      filters: [['properties.nonesuch', 'exists', false]],
    });
    expect(uuids(subproperty)).toEqual([G2, G1, R1, C3, C2, C1]);
  });

  it('answers 422 with one entry per type when a condition is invalid for every type', async () => {
    const res = await contentsOf(U, { uuid: P, filters: [['nonesuch', '=', 'x']] });
    expect(errorsOf(res)).toEqual([
      422,
      [
        "Invalid attribute 'nonesuch' in filter on object type svc#group",
        "Invalid attribute 'nonesuch' in filter on object type svc#containerRequest",
        "Invalid attribute 'nonesuch' in filter on object type svc#workflow",
        "Invalid attribute 'nonesuch' in filter on object type svc#collection",
      ],
    ]);
    const narrowed = await contentsOf(U, {
      uuid: P,
      filters: [
        ['uuid', 'is_a', 'svc#group'],
        ['portable_data_hash', '=', 'x'],
      ],
    });
    expect(errorsOf(narrowed)).toEqual([
      422,
      ["Invalid attribute 'portable_data_hash' in filter on object type svc#group"],
    ]);
  });

  it('orders within each type and never interleaves types', async () => {
    const res = await contentsOf(U, { uuid: P, order: ['collections.name desc'], limit: 10 });
    expect(uuids(res)).toEqual([G2, G1, R1, C3, C2, C1]);
    const asc = await contentsOf(U, { uuid: P, order: ['name asc'] });
    expect(uuids(asc)).toEqual([G1, G2, R1, C1, C2, C3]);
    const onlyCollections = await contentsOf(U, { uuid: P, order: 'collections.name asc' });
    expect(uuids(onlyCollections)).toEqual([G2, G1, R1, C1, C2, C3]);
    const someTypes = await contentsOf(U, { uuid: P, order: ['portable_data_hash desc'] });
    expect(someTypes.status).toBe(200);
  });

  it('refuses order entries no type has', async () => {
    for (const entry of ['nonesuch', 'collections.nonesuch', 'links.name', 'name sideways']) {
      const res = await contentsOf(U, { uuid: P, order: [entry] });
      expect([entry, res.status]).toEqual([entry, 422]);
    }
    const res = await contentsOf(U, { uuid: P, order: ['nonesuch desc'] });
    expect(errorsOf(res)).toEqual([422, ["Invalid order attribute 'nonesuch desc'"]]);
  });

  it('selects per type, with kind always', async () => {
    const res = await contentsOf(U, { uuid: P, select: ['uuid', 'portable_data_hash'] });
    expect(res.body.items_available).toBe(6);
    expect(res.body.items.slice(0, 3)).toEqual([
      { kind: 'svc#group', uuid: G2 },
      { kind: 'svc#group', uuid: G1 },
      { kind: 'svc#containerRequest', uuid: R1 },
    ]);
    expect(Object.keys(res.body.items[3]).sort()).toEqual(['kind', 'portable_data_hash', 'uuid']);
    const qualified = await contentsOf(U, { uuid: P, select: ['collections.name', 'uuid'] });
    expect(qualified.body.items[0]).toEqual({ kind: 'svc#group', uuid: G2 });
    expect(qualified.body.items[5]).toEqual({ kind: 'svc#collection', uuid: C1, name: 'C1' });
  });

  it('never returns manifests, even when selected', async () => {
    const res = await contentsOf(U, {
      uuid: P,
      select: ['uuid', 'manifest_text', 'unsigned_manifest_text'],
      filters: [['uuid', 'is_a', 'svc#collection']],
    });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toEqual({ kind: 'svc#collection', uuid: C3 });
    const defaults = await contentsOf(U, { uuid: P });
    expect(defaults.body.items[3]).not.toHaveProperty('manifest_text');
    expect(defaults.body.items[3]).not.toHaveProperty('unsigned_manifest_text');
    expect(defaults.body.items[3]).toHaveProperty('portable_data_hash');
  });

  it('refuses select names no remaining type has', async () => {
    const res = await contentsOf(U, { uuid: P, select: ['nonesuch'] });
    expect(errorsOf(res)).toEqual([422, ["Invalid attribute 'nonesuch' in select parameter"]]);
    const narrowed = await contentsOf(U, {
      uuid: P,
      select: ['portable_data_hash'],
      filters: [['uuid', 'is_a', 'svc#group']],
    });
    expect(errorsOf(narrowed)).toEqual([
      422,
      ["Invalid attribute 'portable_data_hash' in select parameter"],
    ]);
    const empty = await contentsOf(U, { uuid: P, select: [] });
    expect(errorsOf(empty)).toEqual([422, ['Attribute selection list cannot be empty']]);
  });

  it('omits items_available with count=none and refuses other counts', async () => {
    const res = await contentsOf(U, { uuid: P, count: 'none', limit: 2, offset: 2 });
    expect([uuids(res), 'items_available' in res.body]).toEqual([[R1, C3], false]);
    const bad = await contentsOf(U, { uuid: P, count: 'some' });
    expect(errorsOf(bad)).toEqual([422, ["count parameter must be 'exact' or 'none'"]]);
  });

  it('checks limit and offset as any list', async () => {
    for (const [name, value] of [
      ['limit', -1],
      ['offset', -1],
      ['limit', 'x'],
    ] as const) {
      const res = await contentsOf(U, { uuid: P, [name]: value });
      expect([name, value, res.status]).toEqual([name, value, 422]);
    }
    const zero = await contentsOf(U, { uuid: P, limit: 0 });
    expect([zero.status, uuids(zero), zero.body.items_available]).toEqual([200, [], 6]);
  });

  it('includes the readable owners of the returned items, each once', async () => {
    const res = await contentsOf(U, { uuid: P, include: 'owner_uuid' });
    expect(res.body.included).toHaveLength(1);
    expect(res.body.included[0]).toMatchObject({ kind: 'svc#group', uuid: P, name: 'P' });
    const inner = await make(U, 'collections', { name: 'inner', owner_uuid: G1 });
    const rec = await contentsOf(U, {
      uuid: P,
      recursive: true,
      include: ['owner_uuid'],
      filters: [['uuid', 'is_a', 'svc#collection']],
    });
    expect(uuids(rec)).toContain(inner);
    expect(rec.body.included.map((o: Item) => o.uuid).sort()).toEqual([P, G1].sort());
    const home = await contentsOf(U, { uuid: U.uuid, include: 'owner_uuid' });
    expect(home.body.included.map((o: Item) => [o.kind, o.uuid])).toEqual([['svc#user', U.uuid]]);
  });

  it('includes the containers of returned requests (none here) and refuses other values', async () => {
    const res = await contentsOf(U, { uuid: P, include: ['container_uuid'] });
    expect([res.status, res.body.included]).toEqual([200, []]);
    const bad = await contentsOf(U, { uuid: P, include: ['owner_uuid', 'head_uuid'] });
    expect(errorsOf(bad)).toEqual([422, ["Invalid value for include parameter: 'head_uuid'"]]);
  });
});

describe('targets of contents', () => {
  let U: TestUser, V: TestUser, P: string, Sub: string, inSub: string, home: string;
  beforeAll(async () => {
    U = await makeUser(d.current);
    V = await makeUser(d.current);
    P = await make(U, 'groups', { name: 'P', group_class: 'project' });
    Sub = await make(U, 'groups', { name: 'Sub', group_class: 'project', owner_uuid: P });
    inSub = await make(U, 'collections', { name: 'deep', owner_uuid: Sub });
    home = await make(U, 'collections', { name: 'at home' });
  });

  it("lists a user's home project for a user uuid", async () => {
    const res = await contentsOf(U, { uuid: U.uuid });
    expect(uuids(res)).toEqual([P, home]);
    const viaPath = await U.client.request('GET', `/svc/v1/groups/${U.uuid}/contents`);
    expect(uuids(viaPath)).toEqual([P, home]);
  });

  it('lists only what the caller can read, for every target', async () => {
    expect(uuids(await contentsOf(V, { uuid: U.uuid }))).toEqual([]);
    await grant(V.uuid, 'can_read', home);
    expect(uuids(await contentsOf(V, { uuid: U.uuid }))).toEqual([home]);
    const everything = await contentsOf(V, { limit: 1000 });
    expect(uuids(everything)).toEqual(expect.arrayContaining([home]));
    expect(uuids(everything)).not.toEqual(expect.arrayContaining([P]));
  });

  it('answers 404 for unreadable or unknown targets and other kinds', async () => {
    const unknown = `${P.slice(0, 12)}zzzzzzzzzzzzzzz`;
    const missingUser = `${U.uuid.slice(0, 12)}zzzzzzzzzzzzzzz`;
    for (const uuid of [P, unknown, missingUser, home, 'nonsense']) {
      const res = await contentsOf(V, { uuid });
      expect([uuid, ...errorsOf(res)]).toEqual([uuid, 404, ['Object not found']]);
    }
  });

  it('refuses exclude_home_project with a uuid', async () => {
    const res = await contentsOf(U, { uuid: P, exclude_home_project: true });
    expect(errorsOf(res)).toEqual([
      422,
      ["Cannot use 'exclude_home_project' with a parent object"],
    ]);
  });

  it('goes into subprojects at any depth with recursive=true', async () => {
    const flat = await contentsOf(U, { uuid: U.uuid });
    expect(uuids(flat)).not.toContain(inSub);
    const rec = await contentsOf(U, { uuid: U.uuid, recursive: true });
    expect(uuids(rec)).toEqual([Sub, P, home, inSub]);
    const fromP = await contentsOf(U, { uuid: P, recursive: 'true' });
    expect(uuids(fromP)).toEqual([Sub, inSub]);
  });

  it('never lists roles, and a role owns nothing', async () => {
    const role = await make(U, 'groups', { group_class: 'role' });
    const res = await contentsOf(U, { filters: [['uuid', 'is_a', 'svc#group']], limit: 1000 });
    expect(uuids(res)).not.toContain(role);
    const ofRole = await contentsOf(U, { uuid: role });
    expect([ofRole.status, uuids(ofRole)]).toEqual([200, []]);
  });

  it('hides trashed objects and trashed projects unless include_trash', async () => {
    const T = await make(U, 'groups', { name: 'T', group_class: 'project', owner_uuid: P });
    const K = await make(U, 'collections', { name: 'K', owner_uuid: T });
    const gone = await make(U, 'collections', { name: 'gone', owner_uuid: P });
    expect((await U.client.request('DELETE', `/svc/v1/collections/${gone}`)).status).toBe(200);
    expect((await U.client.request('DELETE', `/svc/v1/groups/${T}`)).status).toBe(200);
    const res = await contentsOf(U, { uuid: P });
    expect(uuids(res)).toEqual([Sub]);
    const withTrash = await contentsOf(U, { uuid: P, include_trash: true });
    expect(uuids(withTrash)).toEqual([T, Sub, gone]);
    const ofT = await contentsOf(U, { uuid: T });
    expect(errorsOf(ofT)).toEqual([404, ['Object not found']]);
    const ofTWithTrash = await contentsOf(U, { uuid: T, include_trash: true });
    expect(uuids(ofTWithTrash)).toEqual([K]);
    const rec = await contentsOf(U, { uuid: P, recursive: true });
    expect([uuids(rec), rec.body.items_available]).toEqual([[Sub, inSub], 2]);
    const recWithTrash = await contentsOf(U, { uuid: P, recursive: true, include_trash: true });
    expect(uuids(recWithTrash)).toEqual([T, Sub, gone, K, inSub]);
    expect(recWithTrash.body.items_available).toBe(5);
    const fromHome = await contentsOf(U, { uuid: U.uuid, recursive: true, limit: 1 });
    expect([uuids(fromHome).length, fromHome.body.items_available]).toEqual([1, 4]);
  });
});

describe('trash inside frozen projects', () => {
  it('is not shown to non-admins even with include_trash', async () => {
    const U = await makeUser(d.current);
    const P = await make(U, 'groups', { name: 'to freeze', group_class: 'project' });
    const Sub = await make(U, 'groups', { name: 'inner', group_class: 'project', owner_uuid: P });
    const kept = await make(U, 'collections', { name: 'kept', owner_uuid: Sub });
    const gone = await make(U, 'collections', { name: 'gone', owner_uuid: Sub });
    expect((await U.client.request('DELETE', `/svc/v1/collections/${gone}`)).status).toBe(200);
    const before = await contentsOf(U, { uuid: Sub, include_trash: true });
    expect(uuids(before)).toEqual([gone, kept]);
    const freeze = await U.client.request('PUT', `/svc/v1/groups/${P}`, {
      json: { group: { frozen_by_uuid: U.uuid } },
    });
    expect(freeze.status).toBe(200);
    const after = await contentsOf(U, { uuid: Sub, include_trash: true });
    expect([uuids(after), after.body.items_available]).toEqual([[kept], 1]);
    const everything = await contentsOf(U, { include_trash: true, limit: 1000 });
    expect(uuids(everything)).not.toContain(gone);
    const admin = await d.current.root.request('GET', '/svc/v1/groups/contents', {
      query: { uuid: Sub, include_trash: true },
    });
    expect(admin.body.items.map((i: Item) => i.uuid)).toEqual([gone, kept]);
  });
});

describe('errors of contents and shared (requests-and-errors.md)', () => {
  let U: TestUser;
  beforeAll(async () => {
    U = await makeUser(d.current);
  });

  it('needs a token', async () => {
    for (const path of ['/svc/v1/groups/contents', '/svc/v1/groups/shared']) {
      const res = await d.current.client(null).request('GET', path);
      expect([path, res.status]).toEqual([path, 401]);
    }
  });

  it('refuses parameters of the wrong type', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ recursive: 'maybe' }, 'recursive parameter must be a boolean, true or false'],
      [
        { exclude_home_project: 'x' },
        'exclude_home_project parameter must be a boolean, true or false',
      ],
      [{ include_trash: 'x' }, 'include_trash parameter must be a boolean, true or false'],
      [
        { include_old_versions: 'x' },
        'include_old_versions parameter must be a boolean, true or false',
      ],
      [{ filters: '[not json' }, 'Could not parse "filters" param as an array'],
      [{ select: '{"a":1}' }, 'Could not parse "select" param as an array'],
    ];
    for (const [query, message] of cases) {
      const res = await contentsOf(U, query);
      expect([query, ...errorsOf(res)]).toEqual([query, 422, [message]]);
    }
    const shared = await U.client.request('GET', '/svc/v1/groups/shared', {
      query: { include_trash: 'x' },
    });
    expect(errorsOf(shared)).toEqual([
      422,
      ['include_trash parameter must be a boolean, true or false'],
    ]);
  });

  it('answers 404 for a path uuid that names no object', async () => {
    const res = await U.client.request(
      'GET',
      `/svc/v1/groups/${U.uuid.slice(0, 5)}-j7d0g-zzzzzzzzzzzzzzz/contents`,
    );
    expect(errorsOf(res)).toEqual([404, ['Object not found']]);
  });

  it('takes only GET', async () => {
    const res = await U.client.request('POST', '/svc/v1/groups/shared');
    expect(res.status).toBe(405);
  });
});
