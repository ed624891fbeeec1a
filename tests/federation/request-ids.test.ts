import { SHAPES, federatedUser, useFederation } from '../harness/federation';
import { capturingLogger } from '../harness/log-capture';

/**
 * A federated list's calls to every cluster carry the caller's request id
 * (requests-and-errors.md §6: the same id is used when a request is forwarded), so one id
 * finds the request in the logs of every cluster it reached.
 */
describe.each(SHAPES)('request ids of a federated list (%s)', (shape) => {
  const { logger, lines } = capturingLogger();
  const f = useFederation(shape, ['home1', 'rmt02'], { logger });

  let user: Awaited<ReturnType<typeof federatedUser>>;
  beforeAll(async () => {
    user = await federatedUser(f.current, 'home1');
  });

  /** The clusters whose cores logged a call of `route` with this request id. */
  const coresAsked = (route: string, requestId: string) =>
    lines
      .filter((l) => l['msg'] === 'request' && l['route'] === route && l['reqId'] === requestId)
      .map((l) => l['cluster'])
      .sort();

  it("every cluster's core is asked with the caller's request id", async () => {
    const api = user.at('home1').api;
    const L1 = (await api.collections.create({ attributes: { name: 'L1' } })).uuid;
    const R1 = (await api.collections.create({ attributes: { name: 'R1' }, cluster_id: 'rmt02' }))
      .uuid;
    const requestId = `req-federated-list-${shape}`;
    const res = await user.at('home1').request('GET', '/svc/v1/collections', {
      query: { filters: [['uuid', 'in', [L1, R1]]], count: 'none' },
      headers: { 'X-Request-Id': requestId },
    });
    expect([res.status, res.headers['x-request-id']]).toEqual([200, requestId]);
    expect(res.body.items.map((i: { uuid: string }) => i.uuid).sort()).toEqual([L1, R1].sort());
    expect(coresAsked('/_call/svc.collections.list', requestId)).toEqual(['home1', 'rmt02']);
  });

  it("a lookup by portable data hash asks the other cluster with the caller's request id", async () => {
    const requestId = `req-federated-pdh-${shape}`;
    const res = await user
      .at('home1')
      .request('GET', '/svc/v1/collections/0123456789abcdef0123456789abcdef+9', {
        headers: { 'X-Request-Id': requestId },
      });
    expect([res.status, res.headers['x-request-id']]).toEqual([404, requestId]);
    expect(coresAsked('/_call/svc.collections.get', requestId)).toEqual(['home1', 'rmt02']);
  });
});
