import { SHAPES, databaseOf, federatedUser, useFederation } from '../harness/federation';

/** Container requests made on another cluster (containers.md §13), in both shapes. */
describe.each(SHAPES)('federated container requests (%s)', (shape) => {
  const f = useFederation(shape, ['home1', 'rmt02', 'rmt03']);
  const body = {
    name: 'federated',
    state: 'Uncommitted',
    command: ['true'],
    container_image: 'd41d8cd98f00b204e9800998ecf8427e+0',
    cwd: '/tmp',
    output_path: '/out',
    mounts: { '/out': { kind: 'tmp', capacity: 1000 } },
  };

  const storedRuntimeToken = async (uuid: string): Promise<string | null> => {
    const { rows } = await databaseOf(f.current, 'rmt02').query<{ runtime_token: string | null }>({
      text: 'SELECT runtime_token FROM container_requests WHERE uuid = $1',
      values: [uuid],
    });
    return rows[0]?.runtime_token ?? null;
  };

  it('gives a local user a new token, salted for the cluster that runs it', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const made = await alice.at('home1').api.containerRequests.create({
      attributes: body,
      cluster_id: 'rmt02',
    });
    expect(made.uuid.startsWith('rmt02-xvhdp-')).toBe(true);
    const runtime = await storedRuntimeToken(made.uuid);
    const [, uuid, secret] = (runtime ?? '').split('/');
    expect(uuid!.startsWith('home1-gj3su-')).toBe(true);
    expect(uuid).not.toBe(alice.tokenUuid);
    expect(secret).toMatch(/^[0-9a-f]{40}$/);
    const record = await f.current.rootOf('home1').api.apiClientAuthorizations.get({ uuid: uuid! });
    expect(record.owner_uuid).toBe(alice.uuid);
    const lifetime = Date.parse(record.expires_at!) - Date.now();
    expect(lifetime).toBeGreaterThan(1_209_600_000 - 600_000);
    expect(lifetime).toBeLessThanOrEqual(1_209_600_000);
  });

  it("forwards a remote user's own token, and an explicit runtime_token unchanged", async () => {
    const carol = await federatedUser(f.current, 'rmt03');
    const viaHome = f.current.clientAt('home1', carol.token).api;
    const made = await viaHome.containerRequests.create({ attributes: body, cluster_id: 'rmt02' });
    const [, uuid] = ((await storedRuntimeToken(made.uuid)) ?? '').split('/');
    expect(uuid).toBe(carol.tokenUuid);
    const alice = await federatedUser(f.current, 'home1');
    const explicit = await f.current.rootOf('home1').api.apiClientAuthorizations.create({
      attributes: { owner_uuid: alice.uuid },
    });
    const runtime = `v2/${explicit.uuid}/${explicit.api_token}`;
    const given = await alice.at('home1').api.containerRequests.create({
      attributes: { ...body, runtime_token: runtime },
      cluster_id: 'rmt02',
    });
    expect(await storedRuntimeToken(given.uuid)).toBe(runtime);
  });

  it('needs a token with scopes exactly ["all"] when it must make the runtime token', async () => {
    const alice = await federatedUser(f.current, 'home1');
    const scoped = await f.current.rootOf('home1').api.apiClientAuthorizations.create({
      attributes: { owner_uuid: alice.uuid, scopes: ['POST /svc/v1/container_requests'] },
    });
    const err = await f.current
      .clientAt('home1', `v2/${scoped.uuid}/${scoped.api_token}`)
      .api.containerRequests.create({ attributes: body, cluster_id: 'rmt02' })
      .then(
        () => null,
        (e: { status: number; errors: string[] }) => e,
      );
    expect([err?.status, err?.errors]).toEqual([403, ['token scope is not [all]']]);
  });
});
