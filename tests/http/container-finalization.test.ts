/** containers.md §10: retries, finalization, output and log collections. */
import { ContainerDispatch } from '@svc/client';
import {
  committedRequest,
  createRequest,
  getContainer,
  getRequest,
  makeImage,
  updateRequest,
} from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();

let u: TestUser;
let image: string;
let dispatcher: TestDispatcher;
beforeAll(async () => {
  u = await makeUser(d.current);
  image = await makeImage(u.client);
  dispatcher = await TestDispatcher.start(d.current);
});

let n = 0;
const bodyFor = (extra: Record<string, unknown> = {}) =>
  committedRequest(image, { command: ['final', `${++n}`], ...extra });

async function project(name = `p${++n}`): Promise<string> {
  const res = await u.client.request('POST', '/svc/v1/groups', {
    json: { group: { name, group_class: 'project' } },
  });
  return res.body.uuid;
}

const collection = async (uuid: string) =>
  (
    await d.current.root.request('GET', `/svc/v1/collections/${uuid}`, {
      query: { include_trash: true },
    })
  ).body as Record<string, any>;

describe('a successful container', () => {
  it('gives each request output and log collections in its project', async () => {
    const p = await project();
    const cr = await createRequest(
      u.client,
      bodyFor({
        owner_uuid: p,
        output_name: 'results',
        output_properties: { a: 'req', shared: 'request' },
        output_storage_classes: ['archive'],
        output_ttl: 3600,
      }),
    );
    const token = await dispatcher.start(cr.container_uuid);
    await d.current.client(token).request('PUT', `/svc/v1/containers/${cr.container_uuid}`, {
      json: { container: { output_properties: { shared: 'container', c: 1 } } },
    });
    const saved = await dispatcher.saveCollections(token);
    const done = await dispatcher.update(cr.container_uuid, {
      state: 'Complete',
      exit_code: 0,
      ...saved,
    });
    expect(done.status).toBe(200);
    const final = await getRequest(d.current, cr.uuid);
    expect(final['state']).toBe('Final');
    const output = await collection(final['output_uuid']);
    expect(output).toMatchObject({
      owner_uuid: p,
      name: 'results',
      portable_data_hash: saved.output,
      properties: { type: 'output', container_request: cr.uuid, shared: 'request', c: 1, a: 'req' },
      storage_classes_desired: ['archive'],
    });
    expect(output['trash_at']).toBe(output['delete_at']);
    const ttl = (Date.parse(output['trash_at']) - Date.parse(done.body.finished_at)) / 1000;
    expect(Math.round(ttl)).toBe(3600);
    const log = await collection(final['log_uuid']);
    expect(log).toMatchObject({
      owner_uuid: p,
      name: `Container log for request ${cr.uuid}`,
      portable_data_hash: saved.log,
      properties: { type: 'log', container_request: cr.uuid },
      trash_at: null,
    });
  });

  it('names the output after the request by default, keeps it, and renames on a clash', async () => {
    const p = await project();
    const body = bodyFor({ owner_uuid: p });
    const r1 = await createRequest(u.client, { ...body, output_name: 'same' });
    const r2 = await createRequest(u.client, { ...body, output_name: 'same' });
    const r3 = await createRequest(u.client, body);
    expect(new Set([r1.container_uuid, r2.container_uuid, r3.container_uuid]).size).toBe(1);
    await dispatcher.complete(r1.container_uuid);
    const names = await Promise.all(
      [r1, r2, r3].map(
        async (r) => (await collection((await getRequest(d.current, r.uuid))['output_uuid'])).name,
      ),
    );
    expect(names[2]).toBe(`Container output for request ${r3.uuid}`);
    expect(names.slice(0, 2).sort()).toEqual([
      'same',
      expect.stringMatching(/^same \([0-9a-z]{15}\)$/),
    ]);
    const out = await collection((await getRequest(d.current, r3.uuid))['output_uuid']);
    expect(out['trash_at']).toBeNull();
  });

  it('renames the log when the output already takes its name', async () => {
    const draft = await createRequest(u.client, { ...bodyFor(), state: 'Uncommitted' });
    const name = `Container log for request ${draft.uuid}`;
    await updateRequest(u.client, draft.uuid, { output_name: name });
    const committed = await updateRequest(u.client, draft.uuid, { state: 'Committed' });
    await dispatcher.complete(committed.body.container_uuid);
    const final = await getRequest(d.current, draft.uuid);
    const output = await collection(final['output_uuid']);
    const log = await collection(final['log_uuid']);
    expect(output.name).toBe(name);
    expect(log.name).toMatch(new RegExp(`^${name} \\([0-9a-z]{15}\\)$`));
  });

  it('marks the output of a child request as intermediate', async () => {
    const parent = await createRequest(u.client, bodyFor());
    const token = await dispatcher.start(parent.container_uuid);
    const child = await createRequest(d.current.client(token), bodyFor());
    await dispatcher.complete(child.container_uuid);
    const final = await getRequest(d.current, child.uuid);
    expect((await collection(final['output_uuid'])).properties.type).toBe('intermediate');
  });
});

describe('a failed container', () => {
  it('ends its requests with a log and no output, and is not retried', async () => {
    const cr = await createRequest(u.client, bodyFor());
    await dispatcher.complete(cr.container_uuid, 1);
    const final = await getRequest(d.current, cr.uuid);
    expect([final['state'], final['output_uuid'], final['container_count']]).toEqual([
      'Final',
      null,
      1,
    ]);
    expect(final['log_uuid']).toMatch(/^home1-4zz18-/);
  });
});

describe('retries (§10 step 1)', () => {
  it('follow the retry example, adding each container cost', async () => {
    const secret = { '/s': { kind: 'text', content: 'retry-secret' } };
    const body = bodyFor({ container_count_max: 2, secret_mounts: secret });
    const cr = await createRequest(u.client, body);
    const first = cr.container_uuid;
    await dispatcher.start(first);
    await dispatcher.cancel(first, { cost: 0.5, subrequests_cost: 1.25 });
    const retried = await getRequest(d.current, cr.uuid);
    expect([retried['state'], retried['container_count'], retried['cumulative_cost']]).toEqual([
      'Committed',
      2,
      1.75,
    ]);
    const second = retried['container_uuid'];
    expect(second).not.toBe(first);
    // The retry has the same attributes, so a matching request shares it.
    const sharer = await createRequest(u.client, { ...body, priority: 0 });
    expect(sharer.container_uuid).toBe(second);
    await updateRequest(u.client, sharer.uuid, { state: 'Final' });
    const c2 = await getContainer(d.current, second);
    expect([c2.state, c2.command]).toEqual(['Queued', cr.command]);
    expect(c2.priority).toBeGreaterThan(0);
    // The new container has the secrets, copied before the first was scrubbed.
    const token = await dispatcher.start(second);
    const mounts = await new ContainerDispatch(d.current.client(token)).secretMounts(second);
    expect(mounts.body).toEqual({ secret_mounts: secret });
    await dispatcher.cancel(second, { cost: 0.125 });
    const final = await getRequest(d.current, cr.uuid);
    expect([final['state'], final['cumulative_cost'], final['output_uuid']]).toEqual([
      'Final',
      1.875,
      null,
    ]);
  });

  it('one new container serves every retryable request; cancelled ones are finalized', async () => {
    const body = bodyFor({ container_count_max: 3 });
    const a = await createRequest(u.client, body);
    const b = await createRequest(u.client, body);
    const c = await createRequest(u.client, { ...body, priority: 4 });
    await updateRequest(u.client, c.uuid, { priority: 0 });
    await dispatcher.start(a.container_uuid);
    await dispatcher.cancel(a.container_uuid);
    const [ra, rb, rc] = await Promise.all([a, b, c].map((r) => getRequest(d.current, r.uuid)));
    expect(ra!['container_uuid']).toBe(rb!['container_uuid']);
    expect(ra!['container_uuid']).not.toBe(a.container_uuid);
    expect([rc!['state'], rc!['container_uuid']]).toEqual(['Final', a.container_uuid]);
  });

  it('stops at container_count_max', async () => {
    const cr = await createRequest(u.client, bodyFor({ container_count_max: 1 }));
    await dispatcher.cancel(cr.container_uuid);
    const final = await getRequest(d.current, cr.uuid);
    expect([final['state'], final['container_count']]).toEqual(['Final', 1]);
  });
});

describe('a request set Final by its client', () => {
  it('gets no collections and no cost', async () => {
    const body = bodyFor();
    const keep = await createRequest(u.client, body);
    const cr = await createRequest(u.client, body);
    const token = await dispatcher.start(cr.container_uuid);
    const res = await updateRequest(u.client, cr.uuid, { state: 'Final' });
    expect([res.status, res.body.state]).toEqual([200, 'Final']);
    await dispatcher.update(cr.container_uuid, {
      state: 'Complete',
      exit_code: 0,
      cost: 2,
      ...(await dispatcher.saveCollections(token)),
    });
    const final = await getRequest(d.current, cr.uuid);
    expect([final['output_uuid'], final['log_uuid'], final['cumulative_cost']]).toEqual([
      null,
      null,
      0,
    ]);
    const other = await getRequest(d.current, keep.uuid);
    expect([other['state'], other['cumulative_cost']]).toEqual(['Final', 2]);
    expect(other['output_uuid']).toMatch(/^home1-4zz18-/);
  });
});

describe('nothing is created inside a trashed or frozen project', () => {
  it('leaves output_uuid and log_uuid null under a trashed project', async () => {
    const p = await project();
    const cr = await createRequest(u.client, bodyFor({ owner_uuid: p }));
    const token = await dispatcher.start(cr.container_uuid);
    await u.client.request('DELETE', `/svc/v1/groups/${p}`);
    await dispatcher.update(cr.container_uuid, {
      state: 'Complete',
      exit_code: 0,
      ...(await dispatcher.saveCollections(token)),
    });
    const final = (
      await u.client.request('GET', `/svc/v1/container_requests/${cr.uuid}`, {
        query: { include_trash: true },
      })
    ).body;
    expect([final.state, final.output_uuid, final.log_uuid]).toEqual(['Final', null, null]);
    const inside = await u.client.request('GET', '/svc/v1/collections', {
      query: { include_trash: true, filters: [['owner_uuid', '=', p]] },
    });
    expect(inside.body.items).toEqual([]);
  });

  it('leaves output_uuid and log_uuid null under a frozen project', async () => {
    const p = await project();
    const sub = (
      await u.client.request('POST', '/svc/v1/groups', {
        json: { group: { name: 'sub', group_class: 'project', owner_uuid: p } },
      })
    ).body.uuid;
    const cr = await createRequest(u.client, bodyFor({ owner_uuid: sub }));
    const token = await dispatcher.start(cr.container_uuid);
    const saved = await dispatcher.saveCollections(token);
    // The API refuses to freeze a project with a Committed request inside (groups.md §7), so
    // the state finalization must still handle is made directly in the database.
    await d.current.running.cores[0]!.db.query({
      text: 'UPDATE groups SET frozen_by_uuid = $2 WHERE uuid = $1',
      values: [p, u.uuid],
    });
    await dispatcher.update(cr.container_uuid, { state: 'Complete', exit_code: 0, ...saved });
    const final = await getRequest(d.current, cr.uuid);
    expect([final['state'], final['output_uuid'], final['log_uuid']]).toEqual([
      'Final',
      null,
      null,
    ]);
  });
});
