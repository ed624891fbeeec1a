import { SHAPES, federatedUser, useFederation } from '../harness/federation';

/**
 * Users of one cluster working on another (federation.md §2, §4), the same in both deployment
 * shapes: a user of home1 makes a project on rmt02 and shares it; each user sees what the
 * permission model says, through their own gateway.
 */
describe.each(SHAPES)('users of one cluster on another (%s)', (shape) => {
  const f = useFederation(shape, ['home1', 'rmt02']);

  it('creates on the remote cluster with cluster_id, owned by the caller mirrored there', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const project = await alice.at('home1').api.groups.create({
      attributes: { name: 'on rmt02', group_class: 'project' },
      cluster_id: 'rmt02',
    });
    expect(project.uuid.startsWith('rmt02-j7d0g-')).toBe(true);
    expect([project.owner_uuid, project.can_manage]).toEqual([alice.uuid, true]);
    const got = await alice.at('home1').api.groups.get({ uuid: project.uuid });
    expect(got.name).toBe('on rmt02');
    const mirror = await alice.at('home1').api.users.current({ cluster_id: 'rmt02' });
    expect(mirror).toMatchObject({ uuid: alice.uuid, is_admin: false, is_active: true });
  });

  it('shares a remote project with a user of that cluster and, through a role there, with users of the first', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const carol = await federatedUser(f.current, 'home1');
    const dave = await federatedUser(f.current, 'home1');
    const bob = await federatedUser(f.current, 'rmt02');
    const eve = await federatedUser(f.current, 'rmt02');
    const asAlice = alice.at('home1').api;
    const project = await asAlice.groups.create({
      attributes: { name: 'shared', group_class: 'project' },
      cluster_id: 'rmt02',
    });
    await asAlice.links.create({
      attributes: {
        link_class: 'permission',
        name: 'can_read',
        tail_uuid: bob.uuid,
        head_uuid: project.uuid,
      },
      cluster_id: 'rmt02',
    });
    // A role on rmt02 can name users of home1 (remote users need no lookup, permissions.md §3).
    const rmtRoot = f.current.rootOf('rmt02').api;
    const role = await rmtRoot.groups.create({
      attributes: { name: `readers ${carol.uuid}`, group_class: 'role' },
      cluster_id: 'rmt02',
    });
    await rmtRoot.links.create({
      attributes: {
        link_class: 'permission',
        name: 'can_write',
        tail_uuid: carol.uuid,
        head_uuid: role.uuid,
      },
      cluster_id: 'rmt02',
    });
    await asAlice.links.create({
      attributes: {
        link_class: 'permission',
        name: 'can_write',
        tail_uuid: role.uuid,
        head_uuid: project.uuid,
      },
      cluster_id: 'rmt02',
    });
    const status = (p: Promise<unknown>) =>
      p.then(
        () => 200,
        (e: { status: number }) => e.status,
      );
    const read = (u: { at: (c: string) => { api: typeof asAlice } }, home: string) =>
      status(u.at(home).api.groups.get({ uuid: project.uuid }));
    expect(await read(bob, 'rmt02')).toBe(200);
    expect(await read(carol, 'home1')).toBe(200);
    expect(await read(eve, 'rmt02')).toBe(404);
    expect(await read(dave, 'home1')).toBe(404);
    const asCarol = await carol.at('home1').api.groups.get({ uuid: project.uuid });
    expect([asCarol.can_write, asCarol.can_manage]).toEqual([true, false]);
    const asBob = await bob.at('rmt02').api.groups.get({ uuid: project.uuid });
    expect([asBob.can_write, asBob.can_manage]).toEqual([false, false]);
  });

  it("refuses a role of another cluster as a link's tail (it does not exist there)", async () => {
    const homeRoot = f.current.rootOf('home1').api;
    const role = await homeRoot.groups.create({
      attributes: { name: `home role ${Date.now()}`, group_class: 'role' },
    });
    const rmtRoot = f.current.rootOf('rmt02').api;
    const project = await rmtRoot.groups.create({
      attributes: { name: `p ${Date.now()}`, group_class: 'project' },
      cluster_id: 'rmt02',
    });
    const err = await rmtRoot.links
      .create({
        attributes: {
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: role.uuid,
          head_uuid: project.uuid,
        },
        cluster_id: 'rmt02',
      })
      .then(
        () => null,
        (e: { status: number; errors: string[] }) => e,
      );
    expect([err?.status, err?.errors]).toEqual([422, [`tail_uuid '${role.uuid}' not found`]]);
  });

  it('answers 404 "no proxy available" for a cluster nobody routes to', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const err = await alice
      .at('home1')
      .api.groups.get({ uuid: 'zz404-j7d0g-000000000000000' })
      .then(
        () => null,
        (e: { status: number; errors: string[] }) => e,
      );
    expect([err?.status, err?.errors]).toEqual([404, ['no proxy available for cluster zz404']]);
  });
});
