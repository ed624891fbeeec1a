import { SHAPES, federatedUser, useFederation } from '../harness/federation';

/**
 * groups/contents across clusters (federation.md §2): a group uuid goes to its cluster, a user
 * uuid or none is answered where the call arrives, `cluster_id` sends the call there.
 */
describe.each(SHAPES)('contents of a project on another cluster (%s)', (shape) => {
  const f = useFederation(shape, ['home1', 'rmt02']);

  it('is answered by the cluster of the project, in both forms', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const api = alice.at('home1').api;
    const project = await api.groups.create({
      attributes: { name: 'remote P', group_class: 'project' },
      cluster_id: 'rmt02',
    });
    const inside = await api.collections.create({
      attributes: { name: 'remote C', owner_uuid: project.uuid },
      cluster_id: 'rmt02',
    });
    const viaQuery = await api.groups.contents({ uuid: project.uuid, include: ['owner_uuid'] });
    expect(viaQuery.items.map((i) => i['uuid'])).toEqual([inside.uuid]);
    expect(viaQuery.items_available).toBe(1);
    expect(viaQuery.included?.map((o) => o['uuid'])).toEqual([project.uuid]);
    const viaPath = await alice
      .at('home1')
      .request('GET', `/svc/v1/groups/${project.uuid}/contents`);
    expect([viaPath.status, viaPath.body.items.map((i: { uuid: string }) => i.uuid)]).toEqual([
      200,
      [inside.uuid],
    ]);
  });

  it("answers a user uuid where the call arrives, and cluster_id's cluster when given", async () => {
    const alice = await federatedUser(f.current, 'home1');
    const api = alice.at('home1').api;
    const local = await api.collections.create({ attributes: { name: 'at home' } });
    const remote = await api.collections.create({
      attributes: { name: 'at home on rmt02' },
      cluster_id: 'rmt02',
    });
    const home = await api.groups.contents({ uuid: alice.uuid });
    expect(home.items.map((i) => i['uuid'])).toEqual([local.uuid]);
    const there = await api.groups.contents({ uuid: alice.uuid, cluster_id: 'rmt02' });
    expect(there.items.map((i) => i['uuid'])).toEqual([remote.uuid]);
  });

  it('answers 404 for a project of a cluster nobody can reach', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const res = await alice.at('home1').request('GET', '/svc/v1/groups/contents', {
      query: { uuid: 'zz404-j7d0g-012345678901234' },
    });
    expect([res.status, res.body.errors]).toEqual([404, ['no proxy available for cluster zz404']]);
  });
});
