/** containers.md §7 and §8: container priority, child requests and cancellation. */
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
  committedRequest(image, { command: ['prio', `${++n}`], ...extra });

/** A container's priority as the exact digits of the JSON answer (it exceeds 2^53). */
async function exactPriority(uuid: string): Promise<bigint> {
  const res = await d.current.root.request('GET', `/svc/v1/containers/${uuid}`, {
    query: { select: ['uuid', 'priority'] },
  });
  const digits = /"priority":(-?\d+)/.exec(res.text)?.[1];
  if (digits === undefined) throw new Error(`no priority in ${res.text}`);
  return BigInt(digits);
}

const formula = (priority: number, createdAt: string): bigint =>
  BigInt(priority) * 2n ** 50n - BigInt(Date.parse(createdAt));

describe('§7 container priority', () => {
  it('is priority × 2^50 − created_at in ms, rendered with every digit', async () => {
    const cr = await createRequest(u.client, bodyFor({ priority: 500 }));
    expect(await exactPriority(cr.container_uuid)).toBe(formula(500, cr.created_at));
    expect(await exactPriority(cr.container_uuid)).toBeGreaterThan(2n ** 53n);
  });

  it('keeps the order of request priorities; cancelling one leaves the other alone', async () => {
    const low = await createRequest(u.client, bodyFor({ priority: 5 }));
    const high = await createRequest(u.client, bodyFor({ priority: 10 }));
    const before = await exactPriority(high.container_uuid);
    expect(before).toBeGreaterThan(await exactPriority(low.container_uuid));
    await updateRequest(u.client, low.uuid, { priority: 0 });
    expect(await exactPriority(high.container_uuid)).toBe(before);
  });

  it('is the highest of the requests that share the container', async () => {
    const body = bodyFor({ priority: 3 });
    const first = await createRequest(u.client, body);
    const second = await createRequest(u.client, { ...body, priority: 7 });
    expect(second.container_uuid).toBe(first.container_uuid);
    expect(await exactPriority(first.container_uuid)).toBe(formula(7, second.created_at));
    await updateRequest(u.client, second.uuid, { priority: 2 });
    expect(await exactPriority(first.container_uuid)).toBe(formula(3, first.created_at));
  });
});

describe('§8 cancellation', () => {
  it('a shared Running container keeps running until no request wants it', async () => {
    const body = bodyFor({ priority: 500 });
    const r1 = await createRequest(u.client, body);
    const r2 = await createRequest(u.client, { ...body, priority: 600 });
    const k = r1.container_uuid;
    expect(r2.container_uuid).toBe(k);
    await dispatcher.start(k);
    const cancelled = await updateRequest(u.client, r2.uuid, { priority: 0 });
    expect([cancelled.status, cancelled.body.state, cancelled.body.container_uuid]).toEqual([
      200,
      'Committed',
      k,
    ]);
    expect(await exactPriority(k)).toBe(formula(500, r1.created_at));
    expect((await getContainer(d.current, k)).state).toBe('Running');
    await updateRequest(u.client, r1.uuid, { priority: 0 });
    const stopped = await getContainer(d.current, k);
    expect([stopped.state, stopped.priority]).toEqual(['Running', 0]);
    // The dispatcher sees priority 0 and stops it; the requests end without output.
    await dispatcher.cancel(k);
    for (const r of [r1, r2]) {
      const final = await getRequest(d.current, r.uuid);
      expect([final['state'], final['output_uuid']]).toEqual(['Final', null]);
    }
  });

  it('a Queued container nobody wants any more is cancelled at once', async () => {
    const body = bodyFor({ priority: 5 });
    const r1 = await createRequest(u.client, body);
    const r2 = await createRequest(u.client, body);
    await updateRequest(u.client, r1.uuid, { priority: 0 });
    expect((await getContainer(d.current, r1.container_uuid)).state).toBe('Queued');
    const last = await updateRequest(u.client, r2.uuid, { priority: 0 });
    expect([last.status, last.body.state]).toEqual([200, 'Final']);
    const c = await getContainer(d.current, r1.container_uuid);
    expect([c.state, c.priority]).toEqual(['Cancelled', 0]);
    expect((await getRequest(d.current, r1.uuid))['state']).toBe('Final');
  });

  it('a commit with priority 0 previews a container that stays Queued', async () => {
    const preview = await createRequest(u.client, bodyFor({ priority: 0 }));
    expect(preview.state).toBe('Committed');
    const c = await getContainer(d.current, preview.container_uuid);
    expect([c.state, c.priority]).toEqual(['Queued', 0]);
    const lock = await dispatcher.api.lock(c.uuid);
    expect([lock.status, lock.body]).toEqual([
      422,
      { errors: ['cannot lock when priority<=0'], error_token: expect.any(String) },
    ]);
    expect((await getRequest(d.current, preview.uuid))['state']).toBe('Committed');
  });
});

describe('§7 child requests', () => {
  /** A parent request and its container, Running, with the container's own token. */
  async function runningParent(priority: number) {
    const parent = await createRequest(u.client, bodyFor({ priority }));
    const token = await dispatcher.start(parent.container_uuid);
    return { parent, container: parent.container_uuid as string, child: d.current.client(token) };
  }

  it('inherit their parent container, its highest request priority and its container priority', async () => {
    const { parent, container, child } = await runningParent(501);
    const cr = await createRequest(child, bodyFor({ priority: 3 }));
    expect([cr.requesting_container_uuid, cr.priority, cr.runtime_user_uuid]).toEqual([
      container,
      501,
      u.uuid,
    ]);
    expect(await exactPriority(cr.container_uuid)).toBe(await exactPriority(container));
    await updateRequest(u.client, parent.uuid, { priority: 700 });
    expect(await exactPriority(container)).toBe(formula(700, parent.created_at));
    expect(await exactPriority(cr.container_uuid)).toBe(formula(700, parent.created_at));
  });

  it('a request made with an ordinary token has no parent', async () => {
    const cr = await createRequest(u.client, bodyFor());
    expect(cr.requesting_container_uuid).toBeNull();
  });

  it('follow the parent-cancel example', async () => {
    const { container: p, child } = await runningParent(500);
    const c1 = await createRequest(child, bodyFor());
    const c2 = await createRequest(child, bodyFor());
    await dispatcher.start(c2.container_uuid);
    await dispatcher.cancel(p);
    const first = await getRequest(d.current, c1.uuid);
    expect([first['state'], first['priority']]).toEqual(['Final', 0]);
    expect((await getContainer(d.current, c1.container_uuid)).state).toBe('Cancelled');
    const second = await getRequest(d.current, c2.uuid);
    expect([second['state'], second['priority']]).toEqual(['Committed', 0]);
    const running = await getContainer(d.current, c2.container_uuid);
    expect([running.state, running.priority]).toEqual(['Running', 0]);
    await dispatcher.cancel(c2.container_uuid);
    expect((await getRequest(d.current, c2.uuid))['state']).toBe('Final');
  });

  it('are cancelled when the parent completes, too', async () => {
    const { container: p, child } = await runningParent(400);
    const c1 = await createRequest(child, bodyFor());
    const token = await dispatcher.ownToken(p);
    const saved = await dispatcher.saveCollections(token);
    await dispatcher.update(p, { state: 'Complete', exit_code: 0, ...saved });
    expect((await getRequest(d.current, c1.uuid))['state']).toBe('Final');
  });
});

describe('trash above a request (§7, §8)', () => {
  it('counts the request as priority 0 while hidden, and again after untrash', async () => {
    const project = (
      await u.client.request('POST', '/svc/v1/groups', {
        json: { group: { name: `runs ${++n}`, group_class: 'project' } },
      })
    ).body.uuid;
    const cr = await createRequest(u.client, bodyFor({ owner_uuid: project, priority: 20 }));
    await dispatcher.start(cr.container_uuid);
    const wanted = formula(20, cr.created_at);
    expect(await exactPriority(cr.container_uuid)).toBe(wanted);
    await u.client.request('DELETE', `/svc/v1/groups/${project}`);
    expect(await exactPriority(cr.container_uuid)).toBe(0n);
    const back = await u.client.request('PUT', `/svc/v1/groups/${project}`, {
      query: { include_trash: true },
      json: { group: { trash_at: null } },
    });
    expect(back.status).toBe(200);
    expect(await exactPriority(cr.container_uuid)).toBe(wanted);
  });

  it('cancels a Queued container of a request in a trashed project; the request ends Final', async () => {
    const project = (
      await u.client.request('POST', '/svc/v1/groups', {
        json: { group: { name: `runs ${++n}`, group_class: 'project' } },
      })
    ).body.uuid;
    const cr = await createRequest(u.client, bodyFor({ owner_uuid: project }));
    await u.client.request('DELETE', `/svc/v1/groups/${project}`);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, c.priority]).toEqual(['Cancelled', 0]);
    const hidden = await u.client.request('GET', `/svc/v1/container_requests/${cr.uuid}`);
    expect(hidden.status).toBe(404);
    const req = await u.client.request('GET', `/svc/v1/container_requests/${cr.uuid}`, {
      query: { include_trash: true },
    });
    expect([req.body.state, req.body.container_count, req.body.log_uuid]).toEqual([
      'Final',
      1,
      null,
    ]);
  });
});
