/** containers.md §6: container selection, the reuse preference order and concurrent commits. */
import { EMPTY_PDH } from '@svc/ids';
import {
  committedRequest,
  createRequest,
  getContainer,
  getRequest,
  makeCollection,
  makeImage,
  updateRequest,
} from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { makeUser, type TestUser } from '../harness/users';

// The races here send up to 100 requests at once with one token: above the per-token limit
// (API.MaxConcurrentRequestsPerToken, tested in overload.test.ts), which is not what is tested.
const d = useDeployment({
  configure: (_id, c) => {
    c['API'] = { MaxConcurrentRequestsPerToken: 1000 };
  },
});

let u: TestUser;
let image: string;
let dispatcher: TestDispatcher;
beforeAll(async () => {
  u = await makeUser(d.current);
  image = await makeImage(u.client);
  dispatcher = await TestDispatcher.start(d.current);
});

let n = 0;
/** A request body of its own (a distinct command), committed with `extra`. */
const bodyFor = (extra: Record<string, unknown> = {}) =>
  committedRequest(image, { command: ['reuse', `${++n}`], ...extra });

const commit = (body: Record<string, unknown>, user: TestUser = u) =>
  createRequest(user.client, body);

describe('the reuse example', () => {
  it('follows the steps of the contract', async () => {
    const same = bodyFor({ environment: { A: '1', B: '2' } });
    const r1 = await commit(same);
    const k1 = r1.container_uuid;
    expect((await getContainer(d.current, k1)).state).toBe('Queued');
    const r2 = await commit(same);
    expect(r2.container_uuid).toBe(k1);
    const r3 = await commit({ ...same, use_existing: false });
    const k2 = r3.container_uuid;
    expect(k2).not.toBe(k1);
    const r4 = await commit({ ...same, environment: { A: '9', B: '2' } });
    expect([k1, k2]).not.toContain(r4.container_uuid);
    const r5 = await commit({ ...same, environment: { B: '2', A: '1' } });
    expect(r5.container_uuid).toBe(k1);

    await dispatcher.complete(k1);
    for (const r of [r1, r2, r5])
      expect((await getRequest(d.current, r.uuid))['state']).toBe('Final');
    expect((await getRequest(d.current, r3.uuid))['state']).toBe('Committed');

    const r6 = await commit(same);
    expect([r6.container_uuid, r6.state]).toEqual([k1, 'Final']);
    expect(r6.output_uuid).toMatch(/^home1-4zz18-/);
    expect(r6.log_uuid).toMatch(/^home1-4zz18-/);

    await dispatcher.cancel(k1);
    const r7 = await commit(same);
    expect(r7.container_uuid).toBe(k2);

    const r8 = await commit({ ...same, secret_mounts: { '/s': { kind: 'text', content: 'x' } } });
    expect([k1, k2, r4.container_uuid]).not.toContain(r8.container_uuid);
  });
});

describe('the preference order', () => {
  const containers: Record<string, string> = {};
  const requests: Record<string, string> = {};
  let body: Record<string, unknown>;

  /** A new container of its own with the shared attributes, at request priority `p`. */
  async function prepare(name: string, priority: number) {
    const cr = await commit({ ...body, use_existing: false, priority, container_count_max: 1 });
    containers[name] = cr.container_uuid;
    requests[name] = cr.uuid;
  }

  /** What a new matching commit gets; the probe is then set Final so it changes nothing. */
  async function probe(): Promise<string> {
    const cr = await commit({ ...body, priority: 1 });
    if (cr.state !== 'Final') await updateRequest(u.client, cr.uuid, { state: 'Final' });
    return cr.container_uuid;
  }

  const nameOf = (uuid: string) =>
    Object.entries(containers).find(([, u2]) => u2 === uuid)?.[0] ?? 'new';

  beforeAll(async () => {
    body = bodyFor();
    // Queued: q2 and q3 share the highest request priority; q2 is older.
    await prepare('q1', 1);
    await prepare('q2', 9);
    await prepare('q3', 9);
    // Locked: l2 has the higher priority.
    await prepare('l1', 2);
    await prepare('l2', 8);
    for (const l of ['l1', 'l2']) await dispatcher.lock(containers[l]!);
    // Running: r2 has the highest progress among the eligible ones.
    for (const r of ['r1', 'r2', 'rError', 'rZero']) await prepare(r, 3);
    const progress: Record<string, number> = { r1: 0.2, r2: 0.7, rError: 0.9, rZero: 0.95 };
    for (const [r, p] of Object.entries(progress)) {
      await dispatcher.start(containers[r]!, { progress: p });
    }
    await dispatcher.update(containers['rError']!, { runtime_status: { error: 'disk full' } });
    await updateRequest(u.client, requests['rZero']!, { priority: 0 });
    // Complete: failed first, then one whose output collection is gone, then c1, then c2.
    for (const c of ['cFailed', 'cGone', 'c1', 'c2']) await prepare(c, 4);
    await dispatcher.complete(containers['cFailed']!, 1);
    const gone = await dispatcher.complete(containers['cGone']!, 0);
    const outputs = await u.client.request('GET', '/svc/v1/collections', {
      query: { filters: [['portable_data_hash', '=', gone['output']]] },
    });
    for (const item of outputs.body.items) {
      await u.client.request('DELETE', `/svc/v1/collections/${item.uuid}`);
    }
    await dispatcher.complete(containers['c1']!, 0);
    await dispatcher.complete(containers['c2']!, 0);
  }, 60_000);

  it('prepared a container in each state', async () => {
    const states: Record<string, string> = {};
    for (const [name, uuid] of Object.entries(containers)) {
      states[name] = (await getContainer(d.current, uuid)).state;
    }
    expect(states).toEqual({
      q1: 'Queued',
      q2: 'Queued',
      q3: 'Queued',
      l1: 'Locked',
      l2: 'Locked',
      r1: 'Running',
      r2: 'Running',
      rError: 'Running',
      rZero: 'Running',
      cFailed: 'Complete',
      cGone: 'Complete',
      c1: 'Complete',
      c2: 'Complete',
    });
    expect((await getContainer(d.current, containers['rZero']!)).priority).toBe(0);
  });

  it('prefers Complete (earliest finished), Running (progress), Locked, Queued (priority), then new', async () => {
    const chosen: string[] = [];
    for (let i = 0; i < 10; i++) {
      const uuid = await probe();
      const name = nameOf(uuid);
      chosen.push(name);
      if (name === 'new') break;
      await dispatcher.cancel(uuid);
    }
    expect(chosen).toEqual(['c1', 'c2', 'r2', 'r1', 'l2', 'l1', 'q2', 'q3', 'q1', 'new']);
  });
});

describe('matching', () => {
  it('ignores key order at every depth of environment, mounts and constraints', async () => {
    const a = bodyFor({
      environment: { X: '1', Y: '2' },
      mounts: {
        '/out': { kind: 'tmp', capacity: 10, device_type: 'ram' },
        '/j': { kind: 'json', content: { b: { d: 1, c: 2 }, a: [1, { y: 1, x: 2 }] } },
      },
      runtime_constraints: { vcpus: 1, ram: 1000000 },
    });
    const b = {
      ...a,
      environment: { Y: '2', X: '1' },
      mounts: {
        '/j': { content: { a: [1, { x: 2, y: 1 }], b: { c: 2, d: 1 } }, kind: 'json' },
        '/out': { device_type: 'ram', kind: 'tmp', capacity: 10 },
      },
      runtime_constraints: { ram: 1000000, vcpus: 1, API: false },
    };
    const ra = await commit(a);
    expect((await commit(b)).container_uuid).toBe(ra.container_uuid);
    const deeper = {
      ...b,
      mounts: {
        ...(b.mounts as object),
        '/j': { kind: 'json', content: { a: [{ x: 2, y: 1 }, 1], b: { c: 2, d: 1 } } },
      },
    };
    expect((await commit(deeper)).container_uuid).not.toBe(ra.container_uuid);
  });

  it.each([
    ['command', ['other']],
    ['cwd', '/elsewhere'],
    ['output_path', '/out2'],
    ['runtime_constraints', { ram: 2000000, vcpus: 1 }],
  ])('a different %s gets another container', async (field, value) => {
    const base = bodyFor({ mounts: { '/out': { kind: 'tmp' }, '/out2': { kind: 'tmp' } } });
    const first = await commit(base);
    expect((await commit({ ...base, [field]: value })).container_uuid).not.toBe(
      first.container_uuid,
    );
  });

  it('a different image gets another container', async () => {
    const base = bodyFor();
    const first = await commit(base);
    const other = await makeImage(u.client);
    expect((await commit({ ...base, container_image: other })).container_uuid).not.toBe(
      first.container_uuid,
    );
  });

  it('use_existing false always makes a new container', async () => {
    const base = bodyFor();
    const first = await commit(base);
    const again = await commit({ ...base, use_existing: false });
    const third = await commit({ ...base, use_existing: false });
    expect(new Set([first.container_uuid, again.container_uuid, third.container_uuid]).size).toBe(
      3,
    );
  });

  it('another runtime user, or other token scopes, get another container', async () => {
    const v = await makeUser(d.current);
    const project = (
      await v.client.request('POST', '/svc/v1/groups', {
        json: { group: { name: 'shared images', group_class: 'project' } },
      })
    ).body.uuid;
    const link = {
      link_class: 'permission',
      name: 'can_read',
      tail_uuid: u.uuid,
      head_uuid: project,
    };
    expect((await v.client.request('POST', '/svc/v1/links', { json: { link } })).status).toBe(200);
    const shared = (await makeCollection(v.client, { owner_uuid: project })).pdh;
    const base = bodyFor({ container_image: shared });
    const byV = await commit(base, v);
    const byU = await commit(base, u);
    expect(byU.container_uuid).not.toBe(byV.container_uuid);
    expect((await commit(base, v)).container_uuid).toBe(byV.container_uuid);

    const scopes = ['POST /svc/v1/container_requests', 'GET /svc/v1/container_requests/'];
    const narrow = await v.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { scopes } },
    });
    const narrowClient = d.current.client(`v2/${narrow.body.uuid}/${narrow.body.api_token}`);
    const limited = await createRequest(narrowClient, base);
    expect(limited.runtime_auth_scopes).toEqual(scopes);
    expect(limited.container_uuid).not.toBe(byV.container_uuid);
  });

  it('secret mounts match by digest, also after the container scrubbed them', async () => {
    const secret = { '/s': { kind: 'text', content: 'pw' } };
    const base = bodyFor({ secret_mounts: secret });
    const first = await commit(base);
    expect((await commit(base)).container_uuid).toBe(first.container_uuid);
    expect(
      (await commit({ ...base, secret_mounts: { '/s': { kind: 'text', content: 'other' } } }))
        .container_uuid,
    ).not.toBe(first.container_uuid);
    expect((await commit({ ...base, secret_mounts: {} })).container_uuid).not.toBe(
      first.container_uuid,
    );
    await dispatcher.complete(first.container_uuid);
    const later = await commit(base);
    expect([later.container_uuid, later.state]).toEqual([first.container_uuid, 'Final']);
  });

  it('{} and absent secret mounts are the same', async () => {
    const base = bodyFor();
    const first = await commit(base);
    expect((await commit({ ...base, secret_mounts: {} })).container_uuid).toBe(
      first.container_uuid,
    );
  });

  it('a reused container keeps its own scheduling_parameters', async () => {
    const base = bodyFor({ scheduling_parameters: { partitions: ['a'] } });
    const first = await commit(base);
    const second = await commit({
      ...base,
      scheduling_parameters: { partitions: ['b'], preemptible: true },
    });
    expect(second.container_uuid).toBe(first.container_uuid);
    expect(
      (await getContainer(d.current, first.container_uuid)).scheduling_parameters.partitions,
    ).toEqual(['a']);
  });

  it('never reuses a Complete container with a non-zero exit code', async () => {
    const base = bodyFor();
    const first = await commit(base);
    await dispatcher.complete(first.container_uuid, 3);
    expect((await commit(base)).container_uuid).not.toBe(first.container_uuid);
  });

  it('counts the empty PDH as always kept', async () => {
    const base = bodyFor();
    const first = await commit(base);
    const token = await dispatcher.start(first.container_uuid);
    const empty = await makeCollection(d.current.client(token), { manifest_text: '' });
    expect(empty.pdh).toBe(EMPTY_PDH);
    await dispatcher.update(first.container_uuid, {
      state: 'Complete',
      exit_code: 0,
      log: EMPTY_PDH,
      output: EMPTY_PDH,
    });
    await d.current.root.request('DELETE', `/svc/v1/collections/${empty.uuid}`);
    const later = await commit(base);
    expect(later.container_uuid).toBe(first.container_uuid);
  });
});

describe('concurrent commits', () => {
  it('100 identical commits at once yield exactly one new container', async () => {
    const body = bodyFor();
    const made = await Promise.all(Array.from({ length: 100 }, () => commit(body)));
    const uuids = new Set(made.map((r) => r.container_uuid));
    expect(uuids.size).toBe(1);
    const listed = await d.current.root.request('GET', '/svc/v1/containers', {
      query: { filters: [['command', '=', body['command']]], count: 'exact' },
    });
    expect(listed.body.items_available).toBe(1);
  }, 60_000);
});
