/** containers.md §5: request states, transitions and what each state lets a client change. */
import {
  committedRequest,
  createRequest,
  getContainer,
  getRequest,
  makeImage,
  uncommittedRequest,
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

/** A distinct command per test keeps each test on its own containers. */
let n = 0;
const fresh = (extra: Record<string, unknown> = {}) => ({ command: ['run', `${++n}`], ...extra });

async function expect422(
  uuid: string,
  attrs: Record<string, unknown>,
  errors: string[],
  user: TestUser = u,
) {
  const res = await updateRequest(user.client, uuid, attrs);
  expect([res.status, res.body.errors]).toEqual([422, errors]);
}

/** The request as a client read it, minus what it cannot send back. */
const copyOf = (cr: Record<string, unknown>) => {
  const { kind: _k, etag: _e, href: _h, ...rest } = cr;
  return rest;
};

describe('transitions', () => {
  it('commits on create with state Committed', async () => {
    const cr = await createRequest(u.client, committedRequest(image, fresh()));
    expect([cr.state, cr.container_count]).toEqual(['Committed', 1]);
    expect(cr.container_uuid).toMatch(/^home1-dz642-/);
  });

  it('Uncommitted → Committed → Final; never back', async () => {
    const cr = await createRequest(u.client, uncommittedRequest(image, fresh()));
    expect([cr.state, cr.container_uuid]).toEqual(['Uncommitted', null]);
    const committed = await updateRequest(u.client, cr.uuid, { state: 'Committed', priority: 1 });
    expect([committed.status, committed.body.state, committed.body.container_count]).toEqual([
      200,
      'Committed',
      1,
    ]);
    await expect422(cr.uuid, { state: 'Uncommitted' }, [
      'State cannot change from Committed to Uncommitted',
    ]);
    const final = await updateRequest(u.client, cr.uuid, { state: 'Final' });
    expect([final.status, final.body.state]).toEqual([200, 'Final']);
    await expect422(cr.uuid, { state: 'Committed' }, [
      'State cannot change from Final to Committed',
    ]);
    await expect422(cr.uuid, { state: 'Uncommitted' }, [
      'State cannot change from Final to Uncommitted',
    ]);
  });

  it('refuses Uncommitted → Final and unknown states', async () => {
    const cr = await createRequest(u.client, uncommittedRequest(image, fresh()));
    await expect422(cr.uuid, { state: 'Final' }, ['State cannot change from Uncommitted to Final']);
    await expect422(cr.uuid, { state: 'Done' }, [
      'state must be one of Uncommitted, Committed, Final',
    ]);
  });

  it('checks the commit rules on the change to Committed', async () => {
    const cr = await createRequest(
      u.client,
      uncommittedRequest(image, fresh({ runtime_constraints: {}, priority: null })),
    );
    await expect422(cr.uuid, { state: 'Committed' }, [
      "priority can't be null when state is Committed",
    ]);
    await expect422(cr.uuid, { state: 'Committed', priority: 3 }, [
      'runtime_constraints [ram]=0 must be a positive integer',
      'runtime_constraints [vcpus]=0 must be a positive integer',
    ]);
    const ok = await updateRequest(u.client, cr.uuid, {
      state: 'Committed',
      priority: 3,
      runtime_constraints: { ram: 5, vcpus: 1 },
    });
    expect([ok.status, ok.body.state]).toEqual([200, 'Committed']);
  });

  it('a client-set Final recomputes the container priority and ends an unwanted Queued container', async () => {
    const cr = await createRequest(u.client, committedRequest(image, fresh()));
    const final = await updateRequest(u.client, cr.uuid, { state: 'Final' });
    expect([final.status, final.body.output_uuid, final.body.log_uuid]).toEqual([200, null, null]);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.state, c.priority]).toEqual(['Cancelled', 0]);
  });
});

describe('Uncommitted: every settable field', () => {
  it('changes anything a client may set, and nothing the server sets', async () => {
    const cr = await createRequest(u.client, uncommittedRequest(image, fresh()));
    const change = {
      name: 'n',
      description: 'd',
      properties: { a: 1 },
      command: ['other'],
      cwd: '/work',
      environment: { X: '1' },
      mounts: { '/o2': { kind: 'tmp' } },
      output_path: '/o2',
      runtime_constraints: { ram: 7, vcpus: 2 },
      scheduling_parameters: { preemptible: true },
      priority: null,
      container_count_max: 2,
      use_existing: false,
      output_name: 'out',
      output_ttl: 60,
      output_storage_classes: ['archive'],
      output_properties: { p: 1 },
      expires_at: '2030-01-01T00:00:00Z',
      filters: '[]',
    };
    const res = await updateRequest(u.client, cr.uuid, change);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ...change,
      runtime_constraints: { ram: 7, vcpus: 2, API: false, keep_cache_ram: 0, keep_cache_disk: 0 },
      scheduling_parameters: {
        preemptible: true,
        partitions: [],
        max_run_time: 0,
        supervisor: false,
      },
      expires_at: '2030-01-01T00:00:00.000000000Z',
    });
    for (const [field, value] of Object.entries({
      container_uuid: `home1-dz642-${'0'.repeat(15)}`,
      container_count: 4,
      runtime_user_uuid: u.uuid,
      runtime_auth_scopes: ['all'],
      log_uuid: `home1-4zz18-${'0'.repeat(15)}`,
      output_uuid: `home1-4zz18-${'0'.repeat(15)}`,
      cumulative_cost: 1.5,
    })) {
      await expect422(cr.uuid, { [field]: value }, [
        `${field} cannot be modified in state 'Uncommitted'`,
      ]);
    }
  });
});

describe('Committed: only priority, container_count_max and container_uuid', () => {
  let cr: Record<string, any>;
  beforeAll(async () => {
    cr = await createRequest(u.client, committedRequest(image, fresh({ name: 'kept' })));
  });

  it('changes priority and container_count_max', async () => {
    const res = await updateRequest(u.client, cr.uuid, { priority: 7, container_count_max: 4 });
    expect([res.status, res.body.priority, res.body.container_count_max]).toEqual([200, 7, 4]);
  });

  it.each([
    ['name', 'x'],
    ['description', 'x'],
    ['properties', { a: 1 }],
    ['command', ['y']],
    ['cwd', '/y'],
    ['environment', { A: 'b' }],
    ['mounts', { '/out': { kind: 'tmp', capacity: 5 } }],
    ['output_path', '/y'],
    ['use_existing', false],
    ['output_name', 'x'],
    ['output_ttl', 5],
    ['secret_mounts', { '/s': { kind: 'text', content: 'x' } }],
  ])('refuses %s', async (field, value) => {
    await expect422(cr.uuid, { [field]: value }, [
      `${field} cannot be modified in state 'Committed'`,
    ]);
  });

  it('refuses owner_uuid', async () => {
    const project = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: `p${++n}`, group_class: 'project' } },
    });
    await expect422(cr.uuid, { owner_uuid: project.body.uuid }, [
      "owner_uuid cannot be modified in state 'Committed'",
    ]);
  });

  it('compares constraints after defaults: the same values are no change', async () => {
    const same = await updateRequest(u.client, cr.uuid, {
      runtime_constraints: { ram: 1000000, vcpus: 1 },
    });
    expect(same.status).toBe(200);
    await expect422(cr.uuid, { runtime_constraints: { ram: 2000000, vcpus: 1 } }, [
      "runtime_constraints cannot be modified in state 'Committed'",
    ]);
  });

  it('accepts an unchanged copy of the whole object, keys in any order', async () => {
    const got = (await u.client.request('GET', `/svc/v1/container_requests/${cr.uuid}`)).body;
    const reversed = Object.fromEntries(Object.entries(copyOf(got)).reverse());
    const res = await updateRequest(u.client, cr.uuid, reversed);
    expect([res.status, res.body.etag]).toEqual([200, got.etag]);
  });

  it('container_uuid: null only for clients, any existing container for admins', async () => {
    await expect422(cr.uuid, { container_uuid: `home1-dz642-${'1'.repeat(15)}` }, [
      'container_uuid can only be updated to null',
    ]);
    const missing = await updateRequest(d.current.root, cr.uuid, {
      container_uuid: `home1-dz642-${'1'.repeat(15)}`,
    });
    expect([missing.status, missing.body.errors]).toEqual([
      422,
      [`container_uuid 'home1-dz642-${'1'.repeat(15)}' not found`],
    ]);
    const other = await createRequest(u.client, committedRequest(image, fresh()));
    const pointed = await updateRequest(d.current.root, cr.uuid, {
      container_uuid: other.container_uuid,
    });
    expect([pointed.status, pointed.body.container_uuid]).toEqual([200, other.container_uuid]);
  });

  it('container_uuid: null runs selection again', async () => {
    const before = await getRequest(d.current, cr.uuid);
    const res = await updateRequest(u.client, cr.uuid, { container_uuid: null });
    expect(res.status).toBe(200);
    expect(res.body.container_count).toBe(before['container_count'] + 1);
    expect(res.body.container_uuid).toMatch(/^home1-dz642-/);
  });
});

describe('Final: only name, description and properties', () => {
  it('changes those and refuses the rest', async () => {
    const cr = await createRequest(u.client, committedRequest(image, fresh()));
    await dispatcher.complete(cr.container_uuid);
    const final = await getRequest(d.current, cr.uuid);
    expect(final['state']).toBe('Final');
    const res = await updateRequest(u.client, cr.uuid, {
      name: 'done',
      description: 'finished',
      properties: { ok: true },
    });
    expect([res.status, res.body.name]).toEqual([200, 'done']);
    for (const [field, value] of Object.entries({
      priority: 5,
      container_count_max: 2,
      container_uuid: null,
      command: ['z'],
      output_name: 'x',
    })) {
      await expect422(cr.uuid, { [field]: value }, [
        `${field} cannot be modified in state 'Final'`,
      ]);
    }
    const copy = await updateRequest(u.client, cr.uuid, copyOf(res.body));
    expect(copy.status).toBe(200);
  });
});

describe('delete', () => {
  it('works in every state with write permission; a Committed request is cancelled first', async () => {
    const draft = await createRequest(u.client, uncommittedRequest(image, fresh()));
    const committed = await createRequest(u.client, committedRequest(image, fresh()));
    const other = await makeUser(d.current);
    const refused = await other.client.request(
      'DELETE',
      `/svc/v1/container_requests/${committed.uuid}`,
    );
    expect(refused.status).toBe(404);
    for (const cr of [draft, committed]) {
      const res = await u.client.request('DELETE', `/svc/v1/container_requests/${cr.uuid}`);
      expect([res.status, res.body.uuid]).toEqual([200, cr.uuid]);
    }
    const c = await getContainer(d.current, committed.container_uuid);
    expect([c.state, c.priority]).toEqual(['Cancelled', 0]);
  });

  it('leaves a shared container to the requests still using it', async () => {
    const body = committedRequest(image, fresh());
    const r1 = await createRequest(u.client, body);
    const r2 = await createRequest(u.client, body);
    expect(r2.container_uuid).toBe(r1.container_uuid);
    await u.client.request('DELETE', `/svc/v1/container_requests/${r1.uuid}`);
    const c = await getContainer(d.current, r1.container_uuid);
    expect(c.state).toBe('Queued');
    expect(c.priority).toBeGreaterThan(0);
  });
});

describe('permissions', () => {
  it('only writers change a request; readers of the request read its container', async () => {
    const cr = await createRequest(u.client, committedRequest(image, fresh()));
    const other = await makeUser(d.current);
    expect((await updateRequest(other.client, cr.uuid, { priority: 9 })).status).toBe(404);
    const container = `/svc/v1/containers/${cr.container_uuid}`;
    expect((await other.client.request('GET', container)).status).toBe(404);
    expect((await u.client.request('GET', container)).status).toBe(200);
    await u.client.request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: other.uuid,
          head_uuid: cr.uuid,
        },
      },
    });
    expect((await other.client.request('GET', container)).status).toBe(200);
    const write = await updateRequest(other.client, cr.uuid, { priority: 9 });
    expect(write.status).toBe(403);
  });
});
