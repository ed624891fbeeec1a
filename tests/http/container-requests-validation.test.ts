/** containers.md §1–§4 and §6 step 2: defaults, validation, mounts, constraints, resolution. */
import {
  committedRequest,
  createRequest,
  getContainer,
  makeImage,
  uncommittedRequest,
  updateRequest,
} from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment({
  configure: (_id, section) => {
    section['Containers'] = { MaxRetryAttempts: 5 };
  },
});
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;

let u: TestUser;
let image: string;
beforeAll(async () => {
  u = await makeUser(d.current);
  image = await makeImage(u.client);
});

const post = (body: Record<string, unknown>, user: TestUser = u) =>
  user.client.request('POST', '/svc/v1/container_requests', { json: { container_request: body } });

async function refused(body: Record<string, unknown>, errors: string[]) {
  const res = await post(body);
  expect([res.status, res.body]).toEqual([
    422,
    { errors, error_token: expect.stringMatching(ERROR_TOKEN) },
  ]);
}

describe('§1 defaults', () => {
  it('renders every default, with Containers.MaxRetryAttempts for container_count_max', async () => {
    const cr = await createRequest(u.client, {
      command: ['true'],
      container_image: image,
      cwd: '/',
      output_path: '/out',
      mounts: { '/out': { kind: 'tmp' } },
    });
    expect(cr).toMatchObject({
      kind: 'svc#containerRequest',
      owner_uuid: u.uuid,
      name: null,
      description: null,
      properties: {},
      state: 'Uncommitted',
      priority: 0,
      container_count_max: 5,
      container_count: 0,
      container_uuid: null,
      requesting_container_uuid: null,
      use_existing: true,
      environment: {},
      output_name: null,
      output_ttl: 0,
      output_storage_classes: ['default'],
      output_properties: {},
      expires_at: null,
      filters: null,
      log_uuid: null,
      output_uuid: null,
      runtime_user_uuid: null,
      runtime_auth_scopes: null,
      cumulative_cost: 0,
      runtime_constraints: { API: false, keep_cache_disk: 0, keep_cache_ram: 0, ram: 0, vcpus: 0 },
      scheduling_parameters: {
        partitions: [],
        preemptible: false,
        max_run_time: 0,
        supervisor: false,
      },
    });
    expect(Object.keys(cr)).not.toContain('secret_mounts');
    expect(Object.keys(cr)).not.toContain('runtime_token');
  });

  it('§4: stores the submitted constraints with the defaults filled in', async () => {
    const cr = await createRequest(
      u.client,
      uncommittedRequest(image, { runtime_constraints: { ram: 1000000, vcpus: 1 } }),
    );
    expect(cr.runtime_constraints).toEqual({
      API: false,
      keep_cache_disk: 0,
      keep_cache_ram: 0,
      ram: 1000000,
      vcpus: 1,
    });
    const got = await u.client.request('GET', `/svc/v1/container_requests/${cr.uuid}`);
    expect(got.body.runtime_constraints).toEqual(cr.runtime_constraints);
  });
});

describe('§2 required fields and rules that always hold', () => {
  const base = {
    command: ['x'],
    container_image: image,
    cwd: '/',
    output_path: '/o',
    mounts: { '/o': { kind: 'tmp' } },
  };
  it.each(['command', 'container_image', 'cwd', 'output_path'])(
    '%s missing, null or "" → can\'t be blank',
    async (field) => {
      for (const value of [undefined, null, '']) {
        const body: Record<string, unknown> = Object.fromEntries(
          Object.entries({ ...base, container_image: image, [field]: value }).filter(
            ([, v]) => v !== undefined,
          ),
        );
        if (field === 'output_path') body['mounts'] = {};
        const res = await post(body);
        expect([field, value, res.status, res.body.errors]).toEqual([
          field,
          value,
          422,
          [`${field} can't be blank`],
        ]);
      }
    },
  );

  it.each([
    [{ state: 'Running' }, 'state must be one of Uncommitted, Committed, Final'],
    [{ command: [] }, 'command must be a non-empty array of strings'],
    [{ command: ['a', 1] }, 'command must be a non-empty array of strings'],
    [{ environment: { 'A=B': 'x' } }, "environment key 'A=B' is invalid"],
    [{ environment: { '': 'x' } }, "environment key '' is invalid"],
    [{ environment: { A: 5 } }, "environment value for 'A' must be a string"],
    [{ priority: 1001 }, 'priority must be an integer between 0 and 1000'],
    [{ priority: -1 }, 'priority must be an integer between 0 and 1000'],
    [{ priority: 'high' }, 'priority must be an integer between 0 and 1000'],
    [
      { state: 'Committed', priority: null, runtime_constraints: { ram: 1, vcpus: 1 } },
      "priority can't be null when state is Committed",
    ],
    [{ output_ttl: -1 }, 'output_ttl must be an integer >= 0'],
    [{ output_ttl: 2147483648 }, 'output_ttl must be an integer >= 0'],
    [{ container_count_max: 0 }, 'container_count_max must be an integer between 1 and 10'],
    [{ container_count_max: 11 }, 'container_count_max must be an integer between 1 and 10'],
    [{ output_name: 'n'.repeat(256) }, 'output_name is too long (maximum is 255 characters)'],
    [{ mounts: {} }, 'output_path must be a mount target'],
    [{ mounts: { '/p': { kind: 'tmp' } } }, 'output_path must be a mount target'],
    [
      { requesting_container_uuid: 'home1-dz642-000000000000000' },
      'requesting_container_uuid cannot be set by clients',
    ],
    [{ runtime_token: 'v2/home1-gj3su-000000000000001/nope' }, 'runtime_token failed validation'],
    [{ runtime_token: 'not-a-v2-token' }, 'runtime_token failed validation'],
    [
      { log_uuid: 'home1-4zz18-000000000000000' },
      "log_uuid cannot be modified in state 'Uncommitted'",
    ],
    [
      { container_uuid: 'home1-dz642-000000000000000' },
      "container_uuid cannot be modified in state 'Uncommitted'",
    ],
    [{ state: 'Final' }, 'State cannot change from Uncommitted to Final'],
  ])('%j → %s', async (change, message) => {
    await refused({ ...base, container_image: image, ...change }, [message]);
  });

  it('lists every failed rule at once', async () => {
    const res = await post({ ...base, container_image: image, priority: 2000, output_ttl: -5 });
    expect([res.status, res.body.errors]).toEqual([
      422,
      ['priority must be an integer between 0 and 1000', 'output_ttl must be an integer >= 0'],
    ]);
  });

  it('accepts requesting_container_uuid sent back with its stored value', async () => {
    const cr = await createRequest(
      u.client,
      uncommittedRequest(image, { requesting_container_uuid: null }),
    );
    const res = await updateRequest(u.client, cr.uuid, {
      requesting_container_uuid: null,
      name: 'n',
    });
    expect([res.status, res.body.name]).toEqual([200, 'n']);
  });

  it('checks the rules again on update, whenever the fields are set', async () => {
    const cr = await createRequest(u.client, uncommittedRequest(image));
    const res = await updateRequest(u.client, cr.uuid, {
      mounts: { '/out': { kind: 'tmp', capacity: 'big' } },
    });
    expect([res.status, res.body.errors]).toEqual([
      422,
      ['mounts [/out][capacity]: incompatible value type: integer required'],
    ]);
    const moved = await updateRequest(u.client, cr.uuid, { output_path: '/elsewhere' });
    expect([moved.status, moved.body.errors]).toEqual([
      422,
      ['output_path must be a mount target'],
    ]);
    const ok = await updateRequest(u.client, cr.uuid, {
      output_path: '/elsewhere',
      mounts: { '/elsewhere': { kind: 'tmp' } },
    });
    expect([ok.status, ok.body.output_path]).toEqual([200, '/elsewhere']);
  });
});

describe('§3 mounts', () => {
  const withMounts = (mounts: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...uncommittedRequest(image),
    mounts: { '/out': { kind: 'tmp' }, ...mounts },
    ...extra,
  });

  it.each([
    [
      { 'rel/path': { kind: 'tmp' } },
      'mounts [rel/path]: invalid target: must be stdin, stdout, stderr or an absolute path',
    ],
    [
      { '/': { kind: 'tmp' } },
      'mounts [/]: invalid target: must be stdin, stdout, stderr or an absolute path',
    ],
    [
      { '/a/../b': { kind: 'tmp' } },
      'mounts [/a/../b]: invalid target: must be stdin, stdout, stderr or an absolute path',
    ],
    [{ '/a': 'tmp' }, 'mounts [/a]: must be a hash'],
    [{ '/a': { kind: 'nfs' } }, 'mounts [/a][kind]: unsupported value "nfs"'],
    [{ '/a': { capacity: 1 } }, 'mounts [/a][kind]: unsupported value ""'],
    [
      { '/a': { kind: 'collection', writable: 'yes' } },
      'mounts [/a][writable]: incompatible value type: boolean required',
    ],
    [
      { '/a': { kind: 'tmp', content: 'x' } },
      'mounts [/a][content]: parameter is not supported for a tmp mount',
    ],
    [
      { '/a': { kind: 'tmp', device_type: 'tape' } },
      'mounts [/a][device_type]: unsupported value "tape"',
    ],
    [
      { '/a': { kind: 'git_tree', commit: 'main' } },
      'mounts [/a][commit]: must be a full 40-character commit hash',
    ],
    [
      { '/a': { kind: 'git_tree', commit: 'a'.repeat(40), path: '/src' } },
      'mounts [/a][path]: must be "/"',
    ],
    [{ stdout: { kind: 'tmp' } }, 'mounts [stdout][kind]: unsupported value "tmp"'],
    [{ stdin: { kind: 'keep' } }, 'mounts [stdin][kind]: unsupported value "keep"'],
  ])('%j → %s', async (mounts, message) => {
    await refused(withMounts(mounts), [message]);
  });

  it('accepts keys a kind does not take when they are empty', async () => {
    const cr = await createRequest(
      u.client,
      withMounts({ '/a': { kind: 'tmp', path: null, writable: false, uuid: '' } }),
    );
    expect(cr.mounts['/a']).toEqual({ kind: 'tmp', path: null, writable: false, uuid: '' });
  });

  it('secret_mounts: json and text only, stdin or absolute targets, no shared targets', async () => {
    await refused(withMounts({}, { secret_mounts: { '/x': { kind: 'tmp' } } }), [
      'secret_mounts [/x][kind]: unsupported value "tmp"',
    ]);
    await refused(withMounts({}, { secret_mounts: { stdout: { kind: 'text', content: 'x' } } }), [
      'secret_mounts [stdout]: invalid target: must be stdin, stdout, stderr or an absolute path',
    ]);
    await refused(
      withMounts(
        { '/s': { kind: 'tmp' } },
        { secret_mounts: { '/s': { kind: 'text', content: 'x' } } },
      ),
      ['secret_mounts [/s]: conflict with non-secret mounts'],
    );
    const ok = await post(
      withMounts({}, { secret_mounts: { stdin: { kind: 'json', content: { a: 1 } } } }),
    );
    expect(ok.status).toBe(200);
  });

  it('on commit: file mounts inside another target, only collections below a local-disk output', async () => {
    const commit = (mounts: Record<string, unknown>) => post(committedRequest(image, { mounts }));
    const outside = await commit({
      '/out': { kind: 'tmp' },
      stdin: { kind: 'file', path: '/nowhere/x' },
    });
    expect([outside.status, outside.body.errors]).toEqual([
      422,
      ['mounts [stdin][path]: must be inside another mount target'],
    ]);
    const below = await commit({
      '/out': { kind: 'tmp', device_type: 'disk' },
      '/out/tmp': { kind: 'tmp' },
    });
    expect([below.status, below.body.errors]).toEqual([
      422,
      ['mounts [/out/tmp]: only collection mounts may be placed below output_path'],
    ]);
    const inside = await commit({
      '/out': { kind: 'tmp' },
      stdin: { kind: 'file', path: '/out/in.txt' },
    });
    expect(inside.status).toBe(200);
    // The same file mount on an uncommitted request is not checked yet.
    const draft = await post(
      uncommittedRequest(image, {
        mounts: { '/out': { kind: 'tmp' }, stdin: { kind: 'file', path: '/x' } },
      }),
    );
    expect(draft.status).toBe(200);
  });
});

describe('§4 runtime constraints and scheduling parameters', () => {
  it.each([
    [{ runtime_constraints: { gpu: 1 } }, "runtime_constraints: unsupported key 'gpu'"],
    [{ runtime_constraints: { ram: -1 } }, 'runtime_constraints [ram] must be an integer >= 0'],
    [{ runtime_constraints: { API: 'yes' } }, 'runtime_constraints [API] must be a boolean'],
    [
      { scheduling_parameters: { partitions: 'a' } },
      'scheduling_parameters [partitions] must be an array of strings',
    ],
    [
      { scheduling_parameters: { preemptible: 1 } },
      'scheduling_parameters [preemptible] must be a boolean',
    ],
    [
      { scheduling_parameters: { max_run_time: 1.5 } },
      'scheduling_parameters [max_run_time] must be an integer >= 0',
    ],
    [{ scheduling_parameters: { queue: 'x' } }, "scheduling_parameters: unsupported key 'queue'"],
  ])('%j → %s', async (change, message) => {
    await refused({ ...uncommittedRequest(image), ...change }, [message]);
  });

  it('needs positive ram and vcpus on commit', async () => {
    await refused(committedRequest(image, { runtime_constraints: { ram: 0, vcpus: 2 } }), [
      'runtime_constraints [ram]=0 must be a positive integer',
    ]);
    await refused(committedRequest(image, { runtime_constraints: {} }), [
      'runtime_constraints [ram]=0 must be a positive integer',
      'runtime_constraints [vcpus]=0 must be a positive integer',
    ]);
  });

  it('fills scheduling_parameters defaults in', async () => {
    const cr = await createRequest(
      u.client,
      committedRequest(image, { scheduling_parameters: { partitions: ['fast'] } }),
    );
    expect(cr.scheduling_parameters).toEqual({
      partitions: ['fast'],
      preemptible: false,
      max_run_time: 0,
      supervisor: false,
    });
    expect((await getContainer(d.current, cr.container_uuid)).scheduling_parameters).toEqual(
      cr.scheduling_parameters,
    );
  });
});
