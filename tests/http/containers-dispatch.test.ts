/** containers.md §9 and §12: the container state machine and the dispatch API. */
import { ContainerDispatch } from '@svc/client';
import {
  committedRequest,
  createRequest,
  getContainer,
  getRequest,
  makeCollection,
  makeImage,
} from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const ERROR_TOKEN = expect.stringMatching(/^\d+\+[0-9a-f]{8}$/);

let u: TestUser;
let image: string;
let dispatcher: TestDispatcher;
let otherDispatcher: TestDispatcher;
beforeAll(async () => {
  u = await makeUser(d.current);
  image = await makeImage(u.client);
  dispatcher = await TestDispatcher.start(d.current);
  otherDispatcher = await TestDispatcher.start(d.current);
});

let n = 0;
/** A new Queued container wanted by a request of u. */
async function queued(extra: Record<string, unknown> = {}) {
  const cr = await createRequest(
    u.client,
    committedRequest(image, { command: ['dispatch', `${++n}`], ...extra }),
  );
  return { request: cr, uuid: cr.container_uuid as string };
}

const refusal = (status: number, message: string) => [
  status,
  { errors: [message], error_token: ERROR_TOKEN },
];

/** The token record as the root token sees it. */
const tokenRecord = async (uuid: string) =>
  (await d.current.root.request('GET', `/svc/v1/api_client_authorizations/${uuid}`)).body;

describe('lock', () => {
  it('takes a Queued container with priority > 0, making its own token', async () => {
    const { uuid } = await queued();
    const res = await dispatcher.api.lock(uuid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'Locked',
      lock_count: 1,
      locked_by_uuid: dispatcher.tokenUuid,
    });
    expect(res.body.auth_uuid).toMatch(/^home1-gj3su-/);
    const record = await tokenRecord(String(res.body.auth_uuid));
    expect([record.owner_uuid, record.scopes, record.expires_at]).toEqual([u.uuid, ['all'], null]);
    const again = await otherDispatcher.api.lock(uuid);
    expect([again.status, again.body]).toEqual(refusal(422, 'cannot lock when Locked'));
  });

  it('is for admins only', async () => {
    const { uuid } = await queued();
    const res = await new ContainerDispatch(u.client).lock(uuid);
    expect([res.status, res.body]).toEqual(refusal(403, 'Forbidden'));
  });

  it('refuses containers that are not Queued', async () => {
    const { uuid } = await queued();
    await dispatcher.start(uuid);
    const res = await dispatcher.api.lock(uuid);
    expect([res.status, res.body]).toEqual(refusal(422, 'cannot lock when Running'));
  });
});

describe('unlock', () => {
  it('gives the container back to the queue and ends its token', async () => {
    const { uuid } = await queued();
    await dispatcher.lock(uuid);
    const token = await dispatcher.ownToken(uuid);
    const auth = (await getContainer(d.current, uuid)).auth_uuid;
    await dispatcher.update(uuid, { runtime_status: { activity: 'loading image' } });
    const other = await otherDispatcher.api.unlock(uuid);
    expect([other.status, other.body]).toEqual(
      refusal(403, 'Forbidden: locked by a different token'),
    );
    const byUser = await new ContainerDispatch(u.client).unlock(uuid);
    expect(byUser.status).toBe(403);
    const res = await dispatcher.api.unlock(uuid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'Queued',
      runtime_status: {},
      locked_by_uuid: null,
      auth_uuid: null,
      lock_count: 1,
    });
    expect((await tokenRecord(auth)).expires_at).not.toBeNull();
    expect((await new ContainerDispatch(d.current.client(token)).current()).status).not.toBe(200);
    const again = await dispatcher.api.unlock(uuid);
    expect([again.status, again.body]).toEqual(refusal(422, 'cannot unlock when Queued'));
  });

  it("ends the container's own token at once, even just after it was used", async () => {
    const { uuid } = await queued();
    await dispatcher.lock(uuid);
    const own = d.current.client(await dispatcher.ownToken(uuid));
    expect((await own.request('GET', '/svc/v1/users/current')).status).toBe(200);
    expect((await dispatcher.api.unlock(uuid)).status).toBe(200);
    expect((await own.request('GET', '/svc/v1/users/current')).status).toBe(401);
  });

  it('cancels after Containers.MaxDispatchAttempts; the request tries again', async () => {
    const { uuid, request } = await queued();
    for (let i = 1; i < 10; i++) {
      await dispatcher.lock(uuid);
      const res = await dispatcher.api.unlock(uuid);
      expect([res.status, res.body.state, res.body.lock_count]).toEqual([200, 'Queued', i]);
    }
    await dispatcher.lock(uuid);
    const last = await dispatcher.api.unlock(uuid);
    expect([last.status, last.body.state, last.body.runtime_status]).toEqual([
      200,
      'Cancelled',
      {
        error:
          "Failed to start container. Cancelled after exceeding 'Containers.MaxDispatchAttempts' (lock_count=10)",
      },
    ]);
    const retried = await getRequest(d.current, request.uuid);
    expect([retried['state'], retried['container_count']]).toEqual(['Committed', 2]);
    expect(retried['container_uuid']).not.toBe(uuid);
  });
});

describe("the container's own token", () => {
  it('auth gives it to the token that locked the container, with its secret', async () => {
    const { uuid } = await queued();
    await dispatcher.lock(uuid);
    const res = await dispatcher.api.auth(uuid);
    const c = await getContainer(d.current, uuid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'svc#apiClientAuthorization',
      uuid: c.auth_uuid,
      owner_uuid: u.uuid,
      scopes: ['all'],
    });
    expect(res.body.api_token).toMatch(/^[0-9a-f]{64}$/);
    expect((await otherDispatcher.api.auth(uuid)).status).toBe(403);
    expect((await new ContainerDispatch(d.current.root).auth(uuid)).status).toBe(403);
    const own = d.current.client(`v2/${res.body.uuid}/${res.body.api_token}`);
    const me = await own.request('GET', '/svc/v1/users/current');
    expect([me.status, me.body.uuid]).toEqual([200, u.uuid]);
    const current = await new ContainerDispatch(own).current();
    expect([current.status, current.body.uuid]).toEqual([200, uuid]);
  });

  it('current: 401 without a token, 404 for a token of no container', async () => {
    const none = await new ContainerDispatch(d.current.client(null)).current();
    expect(none.status).toBe(401);
    const plain = await new ContainerDispatch(u.client).current();
    expect([plain.status, plain.body]).toEqual(
      refusal(404, 'Token is not associated with a container.'),
    );
  });

  it('reads the secret mounts; nobody else does', async () => {
    const secret = { '/secret/pw': { kind: 'text', content: 'hunter2' } };
    const { uuid } = await queued({ secret_mounts: secret });
    const token = await dispatcher.start(uuid);
    const res = await new ContainerDispatch(d.current.client(token)).secretMounts(uuid);
    expect([res.status, res.body]).toEqual([200, { secret_mounts: secret }]);
    for (const client of [d.current.root, u.client, dispatcher.client]) {
      const refused = await new ContainerDispatch(client).secretMounts(uuid);
      expect(refused.status).toBe(403);
    }
  });

  it('updates only the progress and output fields of its Running container', async () => {
    const { uuid } = await queued();
    await dispatcher.lock(uuid);
    const token = await dispatcher.ownToken(uuid);
    const own = d.current.client(token);
    const put = (attrs: Record<string, unknown>) =>
      own.request('PUT', `/svc/v1/containers/${uuid}`, { json: { container: attrs } });
    expect((await put({ progress: 0.1 })).status).toBe(403);
    await dispatcher.update(uuid, { state: 'Running' });
    const ok = await put({
      progress: 0.5,
      runtime_status: { activity: 'running' },
      cost: 0.25,
      subrequests_cost: 0.5,
      output_properties: { k: 'v' },
    });
    expect([ok.status, ok.body.progress, ok.body.cost]).toEqual([200, 0.5, 0.25]);
    // the output it assembled itself (a workflow runner's), from a collection it can read
    const out = await makeCollection(d.current.client(token), { name: 'assembled' });
    const set = await put({ output: out.pdh, exit_code: 0 });
    expect([set.status, set.body.output, set.body.exit_code]).toEqual([200, out.pdh, 0]);
    const unknown = await put({ output: 'acbd18db4cc2f85cedef654fccc4a4d8+3' });
    expect(unknown.status).toBe(422);
    for (const attrs of [{ state: 'Complete' }, { log: out.pdh }, { priority: 5 }]) {
      expect((await put(attrs)).status).toBe(403);
    }
  });

  it('expires when the container ends', async () => {
    const { uuid } = await queued();
    const token = await dispatcher.start(uuid);
    const auth = (await getContainer(d.current, uuid)).auth_uuid;
    await dispatcher.update(uuid, {
      state: 'Complete',
      exit_code: 0,
      ...(await dispatcher.saveCollections(token)),
    });
    const c = await getContainer(d.current, uuid);
    expect([c.state, c.locked_by_uuid, c.auth_uuid]).toEqual(['Complete', null, auth]);
    expect((await tokenRecord(auth)).expires_at).not.toBeNull();
    expect((await new ContainerDispatch(d.current.client(token)).current()).status).not.toBe(200);
  });
});

describe('containers running with a runtime_token (§12)', () => {
  it('have no auth_uuid; the runtime token is their own while they hold it', async () => {
    const runner = await makeUser(d.current);
    const project = (
      await u.client.request('POST', '/svc/v1/groups', {
        json: { group: { name: `rt ${++n}`, group_class: 'project' } },
      })
    ).body.uuid;
    await u.client.request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_write',
          tail_uuid: runner.uuid,
          head_uuid: project,
        },
      },
    });
    const img = (await makeCollection(u.client, { owner_uuid: project })).pdh;
    const { uuid } = await (async () => {
      const cr = await createRequest(
        u.client,
        committedRequest(img, {
          owner_uuid: project,
          command: ['rt', `${++n}`],
          runtime_token: runner.token,
        }),
      );
      return { uuid: cr.container_uuid as string };
    })();
    const locked = await dispatcher.lock(uuid);
    expect(locked['auth_uuid']).toBeNull();
    const auth = await dispatcher.api.auth(uuid);
    expect([auth.status, auth.body.uuid, auth.body.api_token]).toEqual([
      200,
      runner.tokenUuid,
      runner.token.split('/')[2],
    ]);
    const current = await new ContainerDispatch(runner.client).current();
    expect([current.status, current.body.uuid]).toEqual([200, uuid]);
    const child = await createRequest(
      runner.client,
      committedRequest(img, { owner_uuid: project, command: ['child', `${++n}`] }),
    );
    expect(child.requesting_container_uuid).toBe(uuid);
    await dispatcher.update(uuid, { state: 'Running' });
    await dispatcher.update(uuid, { state: 'Cancelled' });
    const me = await runner.client.request('GET', '/svc/v1/users/current');
    expect(me.status).toBe(200);
    expect((await new ContainerDispatch(runner.client).current()).status).toBe(404);
  });
});

describe('discovery and the typed client', () => {
  it('describe every dispatch endpoint', async () => {
    const doc = (await d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest'))
      .body;
    const methods = doc.resources.containers.methods;
    const shape = (name: string) => {
      const m = methods[name];
      return m && [m.httpMethod, m.path, m.response, m.parameterOrder];
    };
    expect(shape('lock')).toEqual([
      'POST',
      'containers/{uuid}/lock',
      { $ref: 'Container' },
      ['uuid'],
    ]);
    expect(shape('unlock')).toEqual([
      'POST',
      'containers/{uuid}/unlock',
      { $ref: 'Container' },
      ['uuid'],
    ]);
    expect(shape('auth')).toEqual([
      'GET',
      'containers/{uuid}/auth',
      { $ref: 'ApiClientAuthorization' },
      ['uuid'],
    ]);
    expect(shape('secret_mounts')).toEqual([
      'GET',
      'containers/{uuid}/secret_mounts',
      {},
      ['uuid'],
    ]);
    expect(shape('current')).toEqual(['GET', 'containers/current', { $ref: 'Container' }, []]);
  });
});
