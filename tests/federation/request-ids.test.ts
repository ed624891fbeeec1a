import { Writable } from 'node:stream';
import pino from 'pino';
import { SHAPES, federatedUser, useFederation } from '../harness/federation';

/**
 * A federated list's calls to every cluster carry the caller's request id
 * (requests-and-errors.md §6: the same id is used when a request is forwarded), so one id
 * finds the request in the logs of every cluster it reached.
 */
describe.each(SHAPES)('request ids of a federated list (%s)', (shape) => {
  const lines: Record<string, unknown>[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const f = useFederation(shape, ['home1', 'rmt02'], {
    logger: pino({ level: 'info' }, capture),
  });

  it("every cluster's core is asked with the caller's request id", async () => {
    const user = await federatedUser(f.current, 'home1');
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
    const coreLines = lines
      .filter((l) => l['msg'] === 'request' && l['route'] === '/_call/svc.collections.list')
      .filter((l) => l['reqId'] === requestId)
      .map((l) => l['cluster'])
      .sort();
    expect(coreLines).toEqual(['home1', 'rmt02']);
  });
});
