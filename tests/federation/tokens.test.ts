import { createHmac } from 'node:crypto';
import { SHAPES, federatedUser, useFederation, type Federated } from '../harness/federation';

/** Tokens across clusters (federation.md §3–§4, auth.md §3), in both shapes. */
const saltFor = (token: string, cluster: string): string => {
  const [, uuid, secret] = token.split('/');
  return `v2/${uuid}/${createHmac('sha1', secret!).update(cluster).digest('hex')}`;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(SHAPES)('tokens across clusters (%s)', (shape) => {
  const f = useFederation(shape, ['home1', 'rmt02', 'rmt03'], {
    configure: (id, section) => {
      if (id === 'rmt02') section['Login'].RemoteTokenRefresh = 2;
    },
  });
  const at = (fed: Federated, cluster: string, token: string | null) =>
    fed.clientAt(cluster, token);
  const current = (cluster: string, token: string, query: Record<string, unknown> = {}) =>
    at(f.current, cluster, token).request('GET', '/svc/v1/users/current', { query });

  it('accepts a token salted for a cluster there, and nowhere else', async () => {
    const alice = await federatedUser(f.current, 'home1');
    // Through rmt02's own gateway (or the one gateway, with cluster_id), as a client would.
    const there = await current('rmt02', saltFor(alice.token, 'rmt02'), { cluster_id: 'rmt02' });
    expect([there.status, there.body.uuid]).toEqual([200, alice.uuid]);
    const wrongCluster = await current('rmt02', saltFor(alice.token, 'rmt03'), {
      cluster_id: 'rmt02',
    });
    expect(wrongCluster.status).toBe(401);
    const atIssuer = await at(f.current, 'home1', saltFor(alice.token, 'rmt02')).request(
      'GET',
      '/svc/v1/groups',
    );
    expect(atIssuer.status).toBe(401);
    const viaRemoteParam = await at(f.current, 'home1', saltFor(alice.token, 'rmt02')).request(
      'GET',
      '/svc/v1/api_client_authorizations/current',
      { query: { remote: 'rmt02' } },
    );
    expect([viaRemoteParam.status, viaRemoteParam.body.uuid]).toEqual([200, alice.tokenUuid]);
  });

  it('mirrors a user of another cluster once, even on concurrent first uses', async () => {
    const alice = await federatedUser(f.current, 'home1', { username: `mira${Date.now()}` });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => current('home1', alice.token, { cluster_id: 'rmt03' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const mirrors = await f.current
      .rootOf('rmt03')
      .api.users.list({ filters: [['uuid', '=', alice.uuid]], cluster_id: 'rmt03' });
    expect(mirrors.items).toHaveLength(1);
    expect(mirrors.items[0]).toMatchObject({ is_admin: false, is_active: true });
  });

  it('gives a mirrored user a suffixed username when the name is taken there', async () => {
    const name = `clash${Date.now()}`;
    await federatedUser(f.current, 'rmt02', { username: name });
    const alice = await federatedUser(f.current, 'home1', { username: name });
    const mirror = await current('home1', alice.token, { cluster_id: 'rmt02' });
    expect([mirror.status, mirror.body.username]).toEqual([200, `${name}2`]);
  });

  it('stops a revoked token on every cluster within RemoteTokenRefresh', async () => {
    const alice = await federatedUser(f.current, 'home1');
    expect((await current('home1', alice.token, { cluster_id: 'rmt02' })).status).toBe(200);
    await f.current.rootOf('home1').api.apiClientAuthorizations.delete({ uuid: alice.tokenUuid });
    expect((await current('home1', alice.token)).status).toBe(401);
    await sleep(3000); // RemoteTokenRefresh is 2 s on rmt02 in this test
    expect((await current('home1', alice.token, { cluster_id: 'rmt02' })).status).toBe(401);
  });

  it('blocks everywhere a user deactivated at home, once the token is checked again', async () => {
    const alice = await federatedUser(f.current, 'home1');
    expect((await current('home1', alice.token, { cluster_id: 'rmt02' })).body.is_active).toBe(
      true,
    );
    await f.current.rootOf('home1').api.users.update({
      uuid: alice.uuid,
      attributes: { is_active: false },
    });
    await sleep(3000);
    const after = await at(f.current, 'home1', alice.token).request('POST', '/svc/v1/groups', {
      query: { cluster_id: 'rmt02' },
      json: { group: { name: 'nope', group_class: 'project' } },
    });
    expect([after.status, after.body.errors]).toEqual([403, ['Forbidden: user is not active']]);
  });

  it('never forwards a forwarded call again', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const project = await alice.at('home1').api.groups.create({
      attributes: { name: 'fwd', group_class: 'project' },
      cluster_id: 'rmt02',
    });
    const res = await alice.at('home1').request('GET', `/svc/v1/groups/${project.uuid}`, {
      query: { forwarded_for: 'rmt03' },
    });
    // Behind one gateway rmt02 answers itself; a separate home1 answers locally: 404.
    expect(res.status).toBe(shape === 'one-gateway' ? 200 : 404);
    if (shape === 'separate') expect(res.body.errors).toEqual(['Object not found']);
  });
});

describe('ActivateUsers: false (federation.md §4 step 4)', () => {
  const f = useFederation('separate', ['home1', 'rmt02'], {
    configure: (id, section) => {
      if (id === 'rmt02') section['RemoteClusters'].home1.ActivateUsers = false;
    },
  });

  it('makes a new mirror inactive, and an existing one keeps its local is_active', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const first = await f.current
      .clientAt('rmt02', alice.token)
      .request('GET', '/svc/v1/users/current');
    expect([first.status, first.body.uuid, first.body.is_active]).toEqual([200, alice.uuid, false]);
    const rmtRoot = f.current.rootOf('rmt02').api;
    // The mirror is rmt02's own record: an admin changes it there with bypass_federation.
    await rmtRoot.users.update({
      uuid: alice.uuid,
      attributes: { is_active: true },
      bypass_federation: true,
    });
    // Another of alice's tokens is validated afresh: the mirror stays active here.
    const token = await f.current
      .rootOf('home1')
      .api.apiClientAuthorizations.create({ attributes: { owner_uuid: alice.uuid } });
    const again = await f.current
      .clientAt('rmt02', `v2/${token.uuid}/${token.api_token}`)
      .request('GET', '/svc/v1/users/current');
    expect([again.status, again.body.is_active]).toEqual([200, true]);
  });
});
