import { request } from 'undici';
import { rootIdentity } from '@svc/contract';
import { ProofSigner, proofKey } from '@svc/ids';
import { useDeployment } from '../harness/deployment';

const d = useDeployment({ clusters: ['home1', 'rmt02'] });
const root = () => d.current.root;

describe('two clusters behind one gateway', () => {
  // A root token is root on its own cluster only (federation.md §1: every rule between clusters
  // applies behind one gateway too); work on rmt02 uses rmt02's root token.
  const rmtRoot = () => d.current.rootOf('rmt02');

  it('creates on each cluster and gets, updates, deletes by uuid', async () => {
    const local = await root().request('POST', '/svc/v1/groups', {
      json: { group: { name: 'here', group_class: 'project' } },
    });
    const remote = await rmtRoot().request('POST', '/svc/v1/groups', {
      query: { cluster_id: 'rmt02' },
      json: { group: { name: 'there', group_class: 'project' } },
    });
    expect([local.status, remote.status]).toEqual([200, 200]);
    expect(local.body.uuid.startsWith('home1-j7d0g-')).toBe(true);
    expect(remote.body.uuid.startsWith('rmt02-j7d0g-')).toBe(true);
    expect(remote.body.owner_uuid).toBe('rmt02-tpzed-000000000000000');

    const got = await rmtRoot().request('GET', `/svc/v1/groups/${remote.body.uuid}`);
    expect([got.status, got.body.name]).toEqual([200, 'there']);
    const updated = await rmtRoot().request('PATCH', `/svc/v1/groups/${remote.body.uuid}`, {
      json: { group: { name: 'moved' } },
    });
    expect([updated.status, updated.body.name]).toEqual([200, 'moved']);
    const deleted = await rmtRoot().request('DELETE', `/svc/v1/groups/${remote.body.uuid}`);
    expect([deleted.status, deleted.body.is_trashed]).toEqual([200, true]);

    const homeList = await root().request('GET', '/svc/v1/groups', { query: { select: ['uuid'] } });
    const uuids = homeList.body.items.map((i: { uuid: string }) => i.uuid);
    expect(uuids).toContain(local.body.uuid);
    expect(uuids.some((u: string) => u.startsWith('rmt02-'))).toBe(false);
    const rmtList = await rmtRoot().request('GET', '/svc/v1/groups', {
      query: { cluster_id: 'rmt02', select: ['uuid'] },
    });
    expect(rmtList.body.items.every((i: { uuid: string }) => i.uuid.startsWith('rmt02-'))).toBe(
      true,
    );
  });

  it('keeps each cluster in its own database', async () => {
    const created = await rmtRoot().request('POST', '/svc/v1/workflows', {
      query: { cluster_id: 'rmt02' },
      json: {},
    });
    const homeCore = d.current.running.cores.find((c) => c.clusterId === 'home1')!;
    const { rows } = await homeCore.db.query({
      text: 'SELECT count(*)::int AS n FROM workflows WHERE uuid = $1',
      values: [created.body.uuid],
    });
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('answers 404 for a cluster that is not configured', async () => {
    const byUuid = await root().request('GET', '/svc/v1/groups/zz404-j7d0g-000000000000000');
    expect([byUuid.status, byUuid.body.errors]).toEqual([
      404,
      ['no proxy available for cluster zz404'],
    ]);
    const byParam = await root().request('POST', '/svc/v1/groups', {
      query: { cluster_id: 'zz404' },
      json: { group_class: 'project' },
    });
    expect([byParam.status, byParam.body.errors]).toEqual([
      404,
      ['no proxy available for cluster zz404'],
    ]);
  });
});

describe('cores trust only the gateway', () => {
  const home = () => d.current.clusters['home1']!;
  const CALL = '/_call/svc.users.current';
  const body = (identity = rootIdentity('home1')) => JSON.stringify({ identity, options: {} });
  const direct = (headers: Record<string, string>, payload = body(), path = CALL) =>
    request(`${home().coreUrl}${path}`, { method: 'POST', headers, body: payload }).then(
      async (r) => ({
        status: r.statusCode,
        body: (await r.body.json()) as { errors?: string[]; uuid?: string },
      }),
    );
  const signed = (
    signer: ProofSigner,
    key: string,
    payload = body(),
    path = CALL,
    at?: number,
  ) => ({
    'x-request-id': 'r1',
    'x-svc-gateway-proof': signer.sign(
      key,
      { method: 'POST', url: path, requestId: 'r1', body: payload },
      at,
    ),
  });

  it('refuses a request without the proof, even with the root token', async () => {
    const res = await direct({ authorization: `Bearer ${home().rootToken}` });
    expect([res.status, res.body.errors]).toEqual([401, ['Not logged in']]);
  });

  it('accepts a proof sent several times at once exactly once', async () => {
    const signer = new ProofSigner();
    const key = proofKey(home().rootToken);
    const same = signed(signer, key);
    const others = [signed(signer, key), signed(signer, key)];
    const answers = await Promise.all([same, same, same, ...others].map((h) => direct(h)));
    const statuses = answers.map((a) => a.status);
    expect([statuses.slice(0, 3).sort(), statuses.slice(3)]).toEqual([
      [200, 401, 401],
      [200, 200],
    ]);
  });

  it('refuses a forged identity, a wrong key, a stale or a replayed proof', async () => {
    const signer = new ProofSigner();
    const goodKey = proofKey(home().rootToken);
    const good = signed(signer, goodKey);
    const ok = await direct(good);
    expect([ok.status, ok.body.uuid]).toEqual([200, 'home1-tpzed-000000000000000']);
    const forged = body({ ...rootIdentity('home1'), userUuid: 'home1-tpzed-anonymouspublic' });
    const attempts: [Record<string, string>, string?, string?][] = [
      [good], // the same proof again: a replay
      [signed(signer, proofKey('x'.repeat(40)))],
      [signed(signer, goodKey, body(), CALL, Date.now() - 10 * 60_000)],
      [signed(signer, goodKey), forged], // a body other than the signed one
      [{ ...signed(signer, goodKey), 'x-request-id': 'r2' }],
      [signed(signer, goodKey), body(), '/_call/svc.users.system'], // another operation
    ];
    for (const [headers, payload, path] of attempts) {
      expect((await direct(headers, payload, path)).status).toBe(401);
    }
  });
});
