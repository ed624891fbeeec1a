/**
 * Filter groups (groups.md §8): validation of properties.filters, contents as every readable
 * object matching the stored conditions, and owning nothing.
 */
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';
import { objectsIn } from '../harness/objects';

const d = useDeployment();
const { grant } = objectsIn(d);

type Item = { uuid: string; kind: string };
const uuids = (res: { body: { items: Item[] } }) => res.body.items.map((i) => i.uuid);

const createFilter = (u: TestUser, properties: unknown) =>
  u.client.request('POST', '/svc/v1/groups', {
    json: { group: { group_class: 'filter', properties } },
  });

async function make(u: TestUser, type: string, attrs: Record<string, unknown>): Promise<string> {
  const singular = type.slice(0, -1);
  const res = await u.client.request('POST', `/svc/v1/${type}`, { json: { [singular]: attrs } });
  expect([type, res.status, res.body.errors]).toEqual([type, 200, undefined]);
  return res.body.uuid as string;
}

describe('validation of properties.filters', () => {
  let U: TestUser;
  beforeAll(async () => {
    U = await makeUser(d.current);
  });

  const SHAPE = 'filters property must be an array of arrays, each with 3 elements';
  it.each([
    [{}, 'filters property missing, it must be an array of arrays, each with 3 elements'],
    [{ filters: 'x' }, SHAPE],
    [{ filters: ['x'] }, SHAPE],
    [{ filters: [['uuid', 'is_a']] }, SHAPE],
    [
      { filters: [['name', '=', 'x']] },
      "filter attribute must be 'uuid' or contain a dot (e.g. groups.name)",
    ],
    [
      { filters: [['groups.uuid', 'is_a', 'svc#group']] },
      "when filter operator is 'is_a', attribute must be 'uuid'",
    ],
    [{ filters: [['uuid', '=', 'x']] }, "when filter attribute is 'uuid', operator must be 'is_a'"],
    [
      { filters: [['links.name', '=', 'x']] },
      'filter attribute qualifier must be one of collections, container_requests, groups, workflows',
    ],
    [
      { filters: [['collections.name', '~', 'x']] },
      'filter operator is not valid (must be =,<,<=,>,>=,!=,like,ilike,in,not in,is_a,exists,contains)',
    ],
  ])('%j: 422 %s', async (properties, message) => {
    const res = await createFilter(U, properties);
    expect([res.status, res.body.errors]).toEqual([422, [message]]);
  });

  it('accepts an empty list, UUID in any case, and checks every update', async () => {
    const ok = await createFilter(U, { filters: [] });
    expect(ok.status).toBe(200);
    const upper = await createFilter(U, { filters: [['UUID', 'is_a', 'svc#collection']] });
    expect(upper.status).toBe(200);
    const bad = await U.client.request('PUT', `/svc/v1/groups/${ok.body.uuid}`, {
      json: { group: { properties: { filters: [['name', '=', 'x']] } } },
    });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      ["filter attribute must be 'uuid' or contain a dot (e.g. groups.name)"],
    ]);
  });

  it('owns nothing', async () => {
    const F = await createFilter(U, { filters: [] });
    const res = await U.client.request('POST', '/svc/v1/collections', {
      json: { collection: { owner_uuid: F.body.uuid } },
    });
    expect([res.status, res.body.errors]).toEqual([
      422,
      ['owner_uuid must be a user or a project'],
    ]);
    const sub = await U.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'project', owner_uuid: F.body.uuid } },
    });
    expect(sub.status).toBe(422);
  });
});

describe('contents of a filter group', () => {
  let U: TestUser, other: TestUser, P: string, sub: string, baz1: string, baz2: string;
  let foo: string, listy: string, hidden: string, wf: string, otherSub: string;
  beforeAll(async () => {
    U = await makeUser(d.current);
    other = await makeUser(d.current);
    P = await make(U, 'groups', { name: 'P', group_class: 'project' });
    sub = await make(U, 'groups', { name: 'A Subproject', group_class: 'project', owner_uuid: P });
    baz1 = await make(U, 'collections', { name: 'baz one', owner_uuid: P });
    baz2 = await make(U, 'collections', { name: 'bazooka', owner_uuid: sub });
    foo = await make(U, 'collections', { name: 'foo' });
    listy = await make(U, 'collections', {
      name: 'listy',
      properties: { listprop: ['elem1', 'elem2'] },
    });
    wf = await make(U, 'workflows', { name: 'wf' });
    hidden = await make(other, 'collections', { name: 'baz hidden' });
    otherSub = await make(other, 'groups', { name: 'A Subproject', group_class: 'project' });
  });

  const contents = (u: TestUser, F: string, query: Record<string, unknown> = {}) =>
    u.client.request('GET', `/svc/v1/groups/${F}/contents`, { query: { limit: 1000, ...query } });

  it('lists the matching readable objects of each type and every readable object of the others', async () => {
    const F1 = await createFilter(U, {
      filters: [
        ['collections.name', 'like', 'baz%'],
        ['groups.name', '=', 'A Subproject'],
      ],
    });
    const res = await contents(U, F1.body.uuid);
    expect(res.status).toBe(200);
    const got = uuids(res);
    expect(got).toEqual(expect.arrayContaining([sub, baz1, baz2, wf]));
    expect(got).not.toEqual(expect.arrayContaining([foo]));
    expect(got).not.toContain(P);
    expect(got).not.toContain(hidden);
    expect(got).not.toContain(otherSub);
    expect(got).not.toContain(F1.body.uuid);
  });

  it('limits the types with is_a and matches list properties with contains', async () => {
    const F2 = await createFilter(U, {
      filters: [
        ['uuid', 'is_a', 'svc#collection'],
        ['collections.properties.listprop', 'contains', 'elem1'],
      ],
    });
    const res = await contents(U, F2.body.uuid);
    expect([uuids(res), res.body.items_available]).toEqual([[listy], 1]);
  });

  it("appends the stored filters to the request's and ignores recursive", async () => {
    const F = await createFilter(U, { filters: [['uuid', 'is_a', 'svc#collection']] });
    const res = await contents(U, F.body.uuid, {
      filters: [['collections.name', 'like', 'baz%']],
      recursive: true,
    });
    expect(uuids(res).sort()).toEqual([baz1, baz2].sort());
  });

  it('lists only what the caller can read, and needs the filter group to be readable', async () => {
    const F = await createFilter(U, { filters: [['collections.name', 'like', 'baz%']] });
    const unreadable = await contents(other, F.body.uuid);
    expect([unreadable.status, unreadable.body.errors]).toEqual([404, ['Object not found']]);
    await grant(other.uuid, 'can_read', F.body.uuid);
    const res = await contents(other, F.body.uuid, {
      filters: [['uuid', 'is_a', 'svc#collection']],
    });
    expect(uuids(res)).toEqual([hidden]);
  });

  it('answers 404 for a trashed filter group unless include_trash', async () => {
    const F = await createFilter(U, { filters: [['uuid', 'is_a', 'svc#workflow']] });
    expect((await U.client.request('DELETE', `/svc/v1/groups/${F.body.uuid}`)).status).toBe(200);
    expect((await contents(U, F.body.uuid)).status).toBe(404);
    const res = await contents(U, F.body.uuid, { include_trash: true });
    expect([res.status, uuids(res)]).toEqual([200, [wf]]);
  });

  it('gives the usual 422 when a stored condition fails at query time', async () => {
    const F = await createFilter(U, { filters: [['collections.nonesuch', '=', 'x']] });
    expect(F.status).toBe(200);
    const res = await contents(U, F.body.uuid);
    expect([res.status, res.body.errors]).toEqual([
      422,
      ["Invalid attribute 'nonesuch' in filter"],
    ]);
  });
});
