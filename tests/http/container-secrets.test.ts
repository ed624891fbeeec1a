/** containers.md §11: secret_mounts and runtime_token are stored, used, and never shown. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { ContainerDispatch } from '@svc/client';
import {
  committedRequest,
  createRequest,
  makeCollection,
  uncommittedRequest,
  updateRequest,
} from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { makeUser, type TestUser } from '../harness/users';

/** Everything the servers log, at every level. */
const logged: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  }),
);
const d = useDeployment({ logger });

const MOUNT_SECRET = 'S3CRET-mount-content-4f7a';
const secretMounts = { '/etc/pw': { kind: 'text', content: MOUNT_SECRET } };

let u: TestUser;
let runner: TestUser;
let image: string;
let dispatcher: TestDispatcher;
/** The secret part of the runtime token. */
let tokenSecret: string;
beforeAll(async () => {
  u = await makeUser(d.current);
  runner = await makeUser(d.current);
  dispatcher = await TestDispatcher.start(d.current);
  tokenSecret = runner.token.split('/')[2]!;
  // The image is in a project shared with the runtime token's user.
  const project = (
    await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'images', group_class: 'project' } },
    })
  ).body.uuid;
  const link = {
    link_class: 'permission',
    name: 'can_read',
    tail_uuid: runner.uuid,
    head_uuid: project,
  };
  await u.client.request('POST', '/svc/v1/links', { json: { link } });
  image = (await makeCollection(u.client, { owner_uuid: project })).pdh;
});

let n = 0;
const bodyFor = (extra: Record<string, unknown> = {}) =>
  committedRequest(image, { command: ['secret', `${++n}`], secret_mounts: secretMounts, ...extra });

const noSecretIn = (text: string) => {
  expect(text).not.toContain(MOUNT_SECRET);
  expect(text).not.toContain(tokenSecret);
};

/** The stored secrets, read from the database itself. */
async function stored(table: string, uuid: string) {
  const { rows } = await d.current.running.cores[0]!.db.query<Record<string, unknown>>({
    text: `SELECT secret_mounts, runtime_token FROM ${table} WHERE uuid = $1`,
    values: [uuid],
  });
  return rows[0]!;
}

describe('never rendered', () => {
  it('in create, get and list answers of requests and containers', async () => {
    const created = await u.client.request('POST', '/svc/v1/container_requests', {
      json: { container_request: bodyFor() },
    });
    expect(created.status).toBe(200);
    noSecretIn(created.text);
    expect(Object.keys(created.body)).not.toEqual(expect.arrayContaining(['secret_mounts']));
    expect(Object.keys(created.body)).not.toEqual(expect.arrayContaining(['runtime_token']));
    const cr = created.body;
    for (const path of [
      `/svc/v1/container_requests/${cr.uuid}`,
      '/svc/v1/container_requests',
      `/svc/v1/containers/${cr.container_uuid}`,
      '/svc/v1/containers',
    ]) {
      const res = await u.client.request('GET', path, {
        query: path.endsWith('s') ? { limit: 1000 } : {},
      });
      expect([path, res.status]).toEqual([path, 200]);
      noSecretIn(res.text);
      expect(res.text).not.toContain('"secret_mounts"');
    }
  });

  it('nor the runtime_token', async () => {
    const cr = await createRequest(u.client, bodyFor({ runtime_token: runner.token }));
    expect(cr.runtime_user_uuid).toBe(runner.uuid);
    const res = await u.client.request('GET', `/svc/v1/container_requests/${cr.uuid}`);
    noSecretIn(res.text);
    expect(res.text).not.toContain('"runtime_token"');
  });

  it.each(['container_requests', 'containers'])(
    '%s: cannot be selected, filtered or ordered on',
    async (type) => {
      const path = `/svc/v1/${type}`;
      for (const name of ['secret_mounts', 'runtime_token']) {
        const select = await u.client.request('GET', path, { query: { select: ['uuid', name] } });
        expect([name, select.status, select.body.errors]).toEqual([
          name,
          422,
          [`Invalid attribute '${name}' in select parameter`],
        ]);
        const filter = await u.client.request('GET', path, {
          query: { filters: [[name, '=', 'x']] },
        });
        expect([name, filter.status]).toEqual([name, 422]);
        const order = await u.client.request('GET', path, { query: { order: [name] } });
        expect([name, order.status]).toEqual([name, 422]);
      }
    },
  );

  it('are not matched by an any search', async () => {
    await createRequest(u.client, bodyFor({ runtime_token: runner.token }));
    for (const needle of [MOUNT_SECRET, tokenSecret]) {
      for (const type of ['container_requests', 'containers']) {
        const res = await d.current.root.request('GET', `/svc/v1/${type}`, {
          query: { filters: [['any', 'ilike', `%${needle}%`]] },
        });
        expect([type, res.status, res.body.items]).toEqual([type, 200, []]);
      }
    }
  });

  it('are not echoed by validation errors', async () => {
    const bad = await u.client.request('POST', '/svc/v1/container_requests', {
      json: {
        container_request: bodyFor({
          secret_mounts: {
            '/s': { kind: 'text', content: { x: MOUNT_SECRET } },
            '/t': { kind: 'tmp', c: MOUNT_SECRET },
          },
          runtime_token: `v2/home1-gj3su-000000000000123/${tokenSecret}`,
        }),
      },
    });
    expect(bad.status).toBe(422);
    noSecretIn(bad.text);
  });
});

describe('kept, used and scrubbed', () => {
  it('an update that leaves them out keeps them; the container gets them', async () => {
    const draft = await createRequest(
      u.client,
      uncommittedRequest(image, { command: ['secret', `${++n}`], secret_mounts: secretMounts }),
    );
    await updateRequest(u.client, draft.uuid, { name: 'renamed' });
    const committed = await updateRequest(u.client, draft.uuid, {
      state: 'Committed',
      priority: 1,
    });
    const uuid = committed.body.container_uuid;
    const token = await dispatcher.start(uuid);
    const mounts = await new ContainerDispatch(d.current.client(token)).secretMounts(uuid);
    expect(mounts.body).toEqual({ secret_mounts: secretMounts });
  });

  it('are cleared on the request when Final and on the container when it ends', async () => {
    const cr = await createRequest(u.client, bodyFor({ runtime_token: runner.token }));
    expect(await stored('container_requests', cr.uuid)).toEqual({
      secret_mounts: secretMounts,
      runtime_token: runner.token,
    });
    expect(await stored('containers', cr.container_uuid)).toEqual({
      secret_mounts: secretMounts,
      runtime_token: runner.token,
    });
    await dispatcher.lock(cr.container_uuid);
    await dispatcher.update(cr.container_uuid, { state: 'Running' });
    await dispatcher.update(cr.container_uuid, { state: 'Complete', exit_code: 0 });
    expect(await stored('container_requests', cr.uuid)).toEqual({
      secret_mounts: {},
      runtime_token: null,
    });
    expect(await stored('containers', cr.container_uuid)).toEqual({
      secret_mounts: {},
      runtime_token: null,
    });
  });

  it('are cleared when a client sets the request Final', async () => {
    const cr = await createRequest(u.client, bodyFor());
    await updateRequest(u.client, cr.uuid, { state: 'Final' });
    expect(await stored('container_requests', cr.uuid)).toEqual({
      secret_mounts: {},
      runtime_token: null,
    });
  });
});

describe('never logged', () => {
  it('appear in nothing the servers logged, nor in the logs resource', async () => {
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) noSecretIn(line);
    const logs = await d.current.root.request('GET', '/svc/v1/logs', {
      query: { filters: [['any', 'ilike', `%${MOUNT_SECRET}%`]] },
    });
    expect([logs.status, logs.body.items]).toEqual([200, []]);
  });
});
