/**
 * groups.shared and contents with exclude_home_project (groups.md §4): the top-level groups
 * and objects that reach the caller through sharing.
 */
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';
import { objectsIn } from '../harness/objects';

const d = useDeployment();
const { grant, project, role } = objectsIn(d);

type Item = { uuid: string; kind: string };
const uuids = (res: { body: { items: Item[] } }) => res.body.items.map((i) => i.uuid);
const sharedWith = (u: TestUser, query: Record<string, unknown> = {}) =>
  u.client.request('GET', '/svc/v1/groups/shared', { query });

describe('the shared example of groups.md §4', () => {
  let foo: TestUser, bar: TestUser, Pf: string, Q: string, K: string;
  beforeAll(async () => {
    foo = await makeUser(d.current);
    bar = await makeUser(d.current);
    Pf = await project(foo, { name: 'Pf' });
    Q = await project(foo, { name: 'Q' });
    await grant(bar.uuid, 'can_read', Pf);
    const res = await foo.client.request('POST', '/svc/v1/collections', {
      json: { collection: { name: 'shared directly' } },
    });
    K = res.body.uuid;
    await grant(bar.uuid, 'can_read', K);
  });

  it('lists a project shared by its owner, with the owner included', async () => {
    const res = await sharedWith(bar, {
      filters: [['group_class', '=', 'project']],
      include: 'owner_uuid',
    });
    expect([res.status, res.body.kind, uuids(res), res.body.items_available]).toEqual([
      200,
      'svc#groupList',
      [Pf],
      1,
    ]);
    expect(res.body.included.map((o: Item) => [o.kind, o.uuid])).toEqual([['svc#user', foo.uuid]]);
    const without = await sharedWith(bar);
    expect([uuids(without), 'included' in without.body]).toEqual([[Pf], false]);
  });

  it('lists nothing of the caller’s own', async () => {
    expect(uuids(await sharedWith(foo))).toEqual([]);
  });

  it('still lists the project once it moves into a project the caller cannot read', async () => {
    const move = await foo.client.request('PUT', `/svc/v1/groups/${Pf}`, {
      json: { group: { owner_uuid: Q } },
    });
    expect(move.status).toBe(200);
    const res = await sharedWith(bar, {
      filters: [['group_class', '=', 'project']],
      include: 'owner_uuid',
    });
    expect([uuids(res), res.body.included]).toEqual([[Pf], []]);
  });

  it('does not list a subproject of a shared project', async () => {
    const inner = await project(foo, { name: 'inner', owner_uuid: Pf });
    const res = await sharedWith(bar);
    expect(uuids(res)).toEqual([Pf]);
    expect(uuids(res)).not.toContain(inner);
  });

  it('applies the same conditions to the four types in contents with exclude_home_project', async () => {
    const res = await bar.client.request('GET', '/svc/v1/groups/contents', {
      query: { exclude_home_project: true },
    });
    expect([res.status, uuids(res)]).toEqual([200, [Pf, K]]);
  });

  it('takes list parameters and refuses include values other than owner_uuid', async () => {
    const selected = await sharedWith(bar, { select: ['uuid', 'name'], count: 'none' });
    expect([selected.body.items, 'items_available' in selected.body]).toEqual([
      [{ kind: 'svc#group', uuid: Pf, name: 'Pf' }],
      false,
    ]);
    const none = await sharedWith(bar, { filters: [['name', '=', 'nope']] });
    expect(uuids(none)).toEqual([]);
    const bad = await sharedWith(bar, { include: 'container_uuid' });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      ["Invalid value for include parameter: 'container_uuid'"],
    ]);
    const badFilter = await sharedWith(bar, { filters: [['nonesuch', '=', 1]] });
    expect(badFilter.status).toBe(422);
  });
});

describe('sharing through a role', () => {
  it('lists a project shared with a role the caller belongs to', async () => {
    const owner = await makeUser(d.current);
    const member = await makeUser(d.current);
    const P = await project(owner, { name: 'via role' });
    const R = await role(owner);
    await grant(member.uuid, 'can_read', R);
    await grant(R, 'can_read', P);
    const res = await sharedWith(member, { include: ['owner_uuid'] });
    expect(uuids(res)).toEqual([P]);
    expect(res.body.included.map((o: Item) => o.uuid)).toEqual([owner.uuid]);
  });

  it('lists a filter group shared by another user', async () => {
    const member = await makeUser(d.current);
    const other = await makeUser(d.current);
    const F = await other.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'filter', name: 'F', properties: { filters: [] } } },
    });
    expect(F.status).toBe(200);
    await grant(member.uuid, 'can_read', F.body.uuid);
    expect(uuids(await sharedWith(member))).toEqual([F.body.uuid]);
  });
});
