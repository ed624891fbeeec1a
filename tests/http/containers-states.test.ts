/** containers.md §9: the container state machine, per-state fields, who may change containers. */
import { committedRequest, createRequest, makeCollection, makeImage } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const ERROR_TOKEN = expect.stringMatching(/^\d+\+[0-9a-f]{8}$/);

let u: TestUser;
let image: string;
let dispatcher: TestDispatcher;
beforeAll(async () => {
  u = await makeUser(d.current);
  image = await makeImage(u.client);
  dispatcher = await TestDispatcher.start(d.current);
});

let n = 0;
/** A new Queued container wanted by a request of u. */
async function queued(extra: Record<string, unknown> = {}) {
  const cr = await createRequest(
    u.client,
    committedRequest(image, { command: ['states', `${++n}`], ...extra }),
  );
  return { request: cr, uuid: cr.container_uuid as string };
}

const refusal = (status: number, message: string) => [
  status,
  { errors: [message], error_token: ERROR_TOKEN },
];

describe('updates by state (§9)', () => {
  const update = (uuid: string, attrs: Record<string, unknown>) => dispatcher.update(uuid, attrs);

  it('Queued: no field; only Cancelled', async () => {
    const { uuid } = await queued();
    for (const [field, value] of Object.entries({ progress: 0.5, priority: 5, log: null })) {
      const res = await update(uuid, { [field]: value === null ? 'x' : value });
      expect([field, res.status, res.body.errors]).toEqual([
        field,
        422,
        [`${field} cannot be modified in state 'Queued'`],
      ]);
    }
    for (const to of ['Running', 'Locked', 'Complete']) {
      const res = await update(uuid, { state: to });
      expect([res.status, res.body]).toEqual(
        refusal(422, `State cannot change from Queued to ${to}`),
      );
    }
    const cancelled = await update(uuid, { state: 'Cancelled', runtime_status: { error: 'no' } });
    expect([cancelled.status, cancelled.body.state]).toEqual([200, 'Cancelled']);
    expect(cancelled.body.finished_at).not.toBeNull();
  });

  it('Locked: runtime_status and log; then Running, which sets started_at', async () => {
    const { uuid } = await queued();
    await dispatcher.lock(uuid);
    const log = await makeCollection(d.current.root);
    const ok = await update(uuid, { runtime_status: { activity: 'pulling' }, log: log.pdh });
    expect([ok.status, ok.body.log]).toEqual([200, log.pdh]);
    const bad = await update(uuid, { progress: 0.1 });
    expect([bad.status, bad.body]).toEqual(
      refusal(422, "progress cannot be modified in state 'Locked'"),
    );
    const running = await update(uuid, { state: 'Running', progress: 0.1 });
    expect([running.status, running.body.state, running.body.progress]).toEqual([
      200,
      'Running',
      0.1,
    ]);
    expect(running.body.started_at).not.toBeNull();
    const back = await update(uuid, { state: 'Locked' });
    expect([back.status, back.body]).toEqual(
      refusal(422, 'State cannot change from Running to Locked'),
    );
  });

  it('Running → Complete needs exit_code; Complete → Cancelled; Cancelled is the end', async () => {
    const { uuid } = await queued();
    await dispatcher.start(uuid);
    const missing = await update(uuid, { state: 'Complete' });
    expect([missing.status, missing.body]).toEqual(
      refusal(422, 'exit_code must be set when state is Complete'),
    );
    const server = await update(uuid, { lock_count: 5 });
    expect([server.status, server.body]).toEqual(
      refusal(422, "lock_count cannot be modified in state 'Running'"),
    );
    const done = await update(uuid, { state: 'Complete', exit_code: 2 });
    expect([done.status, done.body.state, done.body.exit_code]).toEqual([200, 'Complete', 2]);
    expect(done.body.finished_at).not.toBeNull();
    const cancel = await update(uuid, { state: 'Cancelled' });
    expect([cancel.status, cancel.body.state]).toEqual([200, 'Cancelled']);
    for (const to of ['Queued', 'Running', 'Complete']) {
      const res = await update(uuid, { state: to });
      expect([res.status, res.body]).toEqual(
        refusal(422, `State cannot change from Cancelled to ${to}`),
      );
    }
  });

  it('log and output must be readable collections; status texts must be strings', async () => {
    const { uuid } = await queued();
    await dispatcher.start(uuid);
    // Admins read every collection, except those in the trash.
    const hidden = await makeCollection(d.current.root);
    await d.current.root.request('DELETE', `/svc/v1/collections/${hidden.uuid}`);
    for (const field of ['log', 'output']) {
      for (const pdh of ['acbd18db4cc2f85cedef654fccc4a4d8+3', hidden.pdh]) {
        const res = await dispatcher.update(uuid, { [field]: pdh });
        expect([res.status, res.body.errors]).toEqual([
          422,
          [`${field} collection must exist and be readable by current user`],
        ]);
      }
    }
    const status = await update(uuid, { runtime_status: { error: { code: 1 } } });
    expect([status.status, status.body]).toEqual(
      refusal(422, 'runtime_status [error] must be a string'),
    );
  });
});

describe('who may create, change and delete containers', () => {
  it('admins only', async () => {
    const { uuid } = await queued();
    const put = await u.client.request('PUT', `/svc/v1/containers/${uuid}`, {
      json: { container: { state: 'Cancelled' } },
    });
    expect(put.status).toBe(403);
    const create = await u.client.request('POST', '/svc/v1/containers', {
      json: { container: { command: ['x'] } },
    });
    expect(create.status).toBe(403);
    const made = await d.current.root.request('POST', '/svc/v1/containers', {
      json: { container: { command: ['x'], cwd: '/' } },
    });
    expect([made.status, made.body.owner_uuid, made.body.state]).toEqual([
      200,
      'home1-tpzed-000000000000000',
      'Queued',
    ]);
    const del = await u.client.request('DELETE', `/svc/v1/containers/${uuid}`);
    expect(del.status).toBe(403);
    const adminDel = await d.current.root.request('DELETE', `/svc/v1/containers/${made.body.uuid}`);
    expect(adminDel.status).toBe(200);
  });
});
