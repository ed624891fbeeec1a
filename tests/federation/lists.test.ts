import { SHAPES, federatedUser, useFederation } from '../harness/federation';

/** Federated lists (federation.md §5), the section's example table, in both shapes. */
describe.each(SHAPES)('federated lists (%s)', (shape) => {
  const f = useFederation(shape, ['home1', 'rmt02']);
  let L1: string, L2: string, R1: string, R2: string;
  let user: Awaited<ReturnType<typeof federatedUser>>;

  const list = (query: Record<string, unknown>) =>
    user.at('home1').request('GET', '/svc/v1/collections', { query });

  beforeAll(async () => {
    user = await federatedUser(f.current, 'home1');
    const api = user.at('home1').api;
    const make = async (name: string, cluster?: string) =>
      (
        await api.collections.create({
          attributes: { name },
          ...(cluster ? { cluster_id: cluster } : {}),
        })
      ).uuid;
    L1 = await make('L1');
    L2 = await make('L2');
    R1 = await make('R1', 'rmt02');
    R2 = await make('R2', 'rmt02');
  }, 60_000);

  it("answers both clusters' items, one call per cluster, merged by modified_at", async () => {
    const res = await list({ filters: [['uuid', 'in', [L1, R1, R2]]], count: 'none' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'kind', 'limit', 'offset']);
    expect(res.body).toMatchObject({ kind: 'svc#collectionList', offset: 0, limit: 1000 });
    expect(res.body.items.map((i: { uuid: string }) => i.uuid)).toEqual([R2, R1, L1]);
  });

  it("the public config of cluster_id's cluster names that cluster's services (discovery.md §5)", async () => {
    const res = await f.current.clientAt('home1').request('GET', '/svc/v1/config', {
      query: { cluster_id: 'rmt02' },
    });
    // behind one gateway the sibling is reached there; otherwise at its own gateway
    const url = `${f.current.gatewayOf(shape === 'one-gateway' ? 'home1' : 'rmt02')}/`;
    expect([res.status, res.body.ClusterID, res.body.Services.Controller]).toEqual([
      200,
      'rmt02',
      { ExternalURL: url },
    ]);
  });

  it('handles a list whose uuids are all local as usual', async () => {
    const res = await list({ filters: [['uuid', 'in', [L1, L2]]], limit: 1, order: ['name'] });
    expect([res.status, res.body.items_available, res.body.items.length]).toEqual([200, 2, 1]);
  });

  it('intersects uuid filters, and answers an empty set at once', async () => {
    const both = await list({
      filters: [
        ['uuid', 'in', [L1, R1]],
        ['uuid', 'in', [R1]],
      ],
      count: 'none',
    });
    expect(both.body.items.map((i: { uuid: string }) => i.uuid)).toEqual([R1]);
    const none = await list({ filters: [['uuid', 'in', []]] });
    expect(none.body).toEqual({ kind: 'svc#collectionList', offset: 0, limit: 100, items: [] });
  });

  it('adds uuid to select, and leaves out uuids nobody can read', async () => {
    const res = await list({
      filters: [['uuid', 'in', [L1, R1, 'rmt02-4zz18-zzzzzzzzzzzzzzz']]],
      count: 'none',
      select: ['name'],
    });
    expect(res.body.items.map((i: Record<string, unknown>) => Object.keys(i).sort())).toEqual([
      ['kind', 'name', 'uuid'],
      ['kind', 'name', 'uuid'],
    ]);
  });

  it.each([
    [
      { filters: () => [['uuid', 'in', [L1, R1]]] },
      400,
      'cannot execute federated list query unless count=="none"',
    ],
    [
      {
        filters: () => [
          ['uuid', 'in', [L1, R1]],
          ['name', '=', 'x'],
        ],
        count: 'none',
      },
      400,
      "cannot execute federated list query: each filter must be either 'uuid = ...' or 'uuid in [...]'",
    ],
    [
      { filters: () => [['uuid', 'in', [L1, R1]]], count: 'none', limit: 5 },
      400,
      'cannot execute federated list query with limit (5), offset (0) > 0, or order ([]) parameter',
    ],
    [
      { filters: () => [['uuid', 'in', [L1, R1]]], count: 'none', offset: 1 },
      400,
      'cannot execute federated list query with limit (null), offset (1) > 0, or order ([]) parameter',
    ],
    [
      { filters: () => [['uuid', 'in', 'teapot']] },
      400,
      'invalid operand type string in filter ["uuid","in","teapot"]',
    ],
    [
      { filters: () => [['uuid', 'in', [L1, 'zz404-4zz18-000000000000000']]], count: 'none' },
      404,
      'cannot execute federated list query: no proxy available for cluster "zz404"',
    ],
  ])('refuses %#', async (query, status, message) => {
    const res = await list({ ...query, filters: query.filters() });
    expect([res.status, res.body.errors]).toEqual([status, [message]]);
  });

  it('sends a list with cluster_id to that cluster whole, and keeps bypass_federation for admins', async () => {
    const there = await list({
      cluster_id: 'rmt02',
      filters: [['uuid', 'in', [L1, R1]]],
      limit: 5,
    });
    expect(there.body.items.map((i: { uuid: string }) => i.uuid)).toEqual([R1]);
    const bypass = await list({ bypass_federation: true, filters: [['uuid', 'in', [L1, R1]]] });
    expect([bypass.status, bypass.body.errors]).toEqual([
      403,
      ['The bypass_federation parameter is only permitted when current user is admin'],
    ]);
    const admin = await f.current.rootOf('home1').request('GET', '/svc/v1/collections', {
      query: { bypass_federation: true, filters: [['uuid', 'in', [L1, R1]]] },
    });
    expect(admin.body.items.map((i: { uuid: string }) => i.uuid)).toEqual([L1]);
  });

  it('finds a collection of another cluster by its portable data hash', async () => {
    const manifest = `. 37b51d194a7513e45b56f6524f2d51f2+3 0:3:federated-${shape}.txt\n`;
    // Saved by rmt02's admin (a locator without a signature is refused to others, storage.md
    // §5) for the user, who is mirrored there already.
    const made = await f.current.rootOf('rmt02').api.collections.create({
      attributes: { name: 'by pdh', manifest_text: manifest, owner_uuid: user.uuid },
      cluster_id: 'rmt02',
    });
    const res = await user
      .at('home1')
      .request('GET', `/svc/v1/collections/${made.portable_data_hash}`);
    expect([res.status, res.body.portable_data_hash]).toEqual([200, made.portable_data_hash]);
    const missing = await user
      .at('home1')
      .request('GET', '/svc/v1/collections/0123456789abcdef0123456789abcdef+9');
    expect(missing.status).toBe(404);
  });
});
