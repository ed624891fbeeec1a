/** Container requests and the dispatch API on the embedded database (PGlite, PostgreSQL 18). */
import { ContainerDispatch } from '@svc/client';
import {
  committedRequest,
  createRequest,
  getContainer,
  getRequest,
  makeImage,
} from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { makeUser } from '../harness/users';

const d = useDeployment({ database: 'pglite' });

it('commits, reuses, dispatches, retries and finalizes', async () => {
  const u = await makeUser(d.current);
  const image = await makeImage(u.client);
  const dispatcher = await TestDispatcher.start(d.current);
  const body = committedRequest(image, {
    environment: { A: '1', B: '2' },
    priority: 500,
    container_count_max: 2,
  });
  const r1 = await createRequest(u.client, body);
  const r2 = await createRequest(u.client, { ...body, environment: { B: '2', A: '1' } });
  expect(r2.container_uuid).toBe(r1.container_uuid);
  const priority = /"priority":(\d+)/.exec(
    (await d.current.root.request('GET', `/svc/v1/containers/${r1.container_uuid}`)).text,
  )?.[1];
  expect(BigInt(priority!)).toBe(500n * 2n ** 50n - BigInt(Date.parse(r1.created_at)));

  const token = await dispatcher.start(r1.container_uuid);
  expect((await new ContainerDispatch(d.current.client(token)).current()).body.uuid).toBe(
    r1.container_uuid,
  );
  await dispatcher.cancel(r1.container_uuid, { cost: 0.5 });
  const retried = await getRequest(d.current, r1.uuid);
  expect([retried['state'], retried['container_count'], retried['cumulative_cost']]).toEqual([
    'Committed',
    2,
    0.5,
  ]);

  await dispatcher.complete(retried['container_uuid']);
  const final = await getRequest(d.current, r1.uuid);
  expect(final['state']).toBe('Final');
  expect(final['output_uuid']).toMatch(/^home1-4zz18-/);
  const again = await createRequest(u.client, body);
  expect([again.state, again.container_uuid]).toEqual(['Final', retried['container_uuid']]);
  expect((await getContainer(d.current, r1.container_uuid)).state).toBe('Cancelled');

  const made = await Promise.all(
    Array.from({ length: 10 }, () => createRequest(u.client, { ...body, command: ['same'] })),
  );
  expect(new Set(made.map((r) => r.container_uuid)).size).toBe(1);
}, 60_000);
