/**
 * Credentials (docs/api/more-resources.md §7): validation, who may see, change and share them, the
 * secret fetched only by a Running container's own token, every fetch recorded — and the
 * secret never in a list, an answer, a log record, a log line or an error.
 */
import { randomBytes } from 'node:crypto';
import { committedRequest, createRequest, makeImage } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { capturingLogger } from '../harness/log-capture';
import { answer, inactive } from '../harness/answers';
import { objectsIn } from '../harness/objects';
import { makeUser, SYSTEM, type TestUser } from '../harness/users';

const captured = capturingLogger('debug');
const d = useDeployment({ logger: captured.logger });
const { grant, role } = objectsIn(d);

/** Every secret this file stores: none may appear anywhere but in `secret` answers. */
const SECRETS: string[] = [];
const newSecret = () => {
  const s = `S3CR3T${randomBytes(12).toString('hex')}`;
  SECRETS.push(s);
  return s;
};
const FUTURE = '2099-01-01T00:00:00Z';
let n = 0;
const body = (extra: Record<string, unknown> = {}) => ({
  name: `cred ${++n}`,
  credential_class: 'basic_auth',
  external_id: `id-${n}`,
  secret: newSecret(),
  expires_at: FUTURE,
  ...extra,
});
const create = (u: TestUser, extra: Record<string, unknown> = {}) =>
  u.client.request('POST', '/svc/v1/credentials', { json: { credential: body(extra) } });

let owner: TestUser;
let other: TestUser;
beforeAll(async () => {
  owner = await makeUser(d.current);
  other = await makeUser(d.current);
});

describe('credentials: fields and validation (§7.1)', () => {
  it('are owned by the system user, never render the secret, and get a manager link', async () => {
    const res = await create(owner, { scopes: null, description: 'd' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'svc#credential',
      owner_uuid: SYSTEM,
      scopes: [],
      description: 'd',
      external_id: `id-${n}`,
    });
    expect(res.body.uuid).toMatch(/^home1-oss07-/);
    expect('secret' in res.body).toBe(false);
    const links = await d.current.root.request('GET', `/svc/v1/permissions/${res.body.uuid}`);
    expect(links.body.items.map((l: any) => [l.tail_uuid, l.name])).toEqual([
      [owner.uuid, 'can_manage'],
    ]);
  });

  it('list every failed rule in one 422', async () => {
    const blank = await owner.client.request('POST', '/svc/v1/credentials', {
      json: { credential: { name: ' \t ', scopes: 'x' } },
    });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual(
      expect.arrayContaining([
        "name can't be blank",
        "credential_class can't be blank",
        "external_id can't be blank",
        "secret can't be blank",
        "expires_at can't be blank",
        'scopes must be an array of strings',
      ]),
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ credential_class: 'svc:thing' }, 'credential_class svc:thing is not implemented'],
      [
        { credential_class: 'aws_access_key' },
        'credential_class aws_access_key conflicts with reserved credential class svc:aws_access_key',
      ],
      [
        { credential_class: 'svc:aws_access_key', scopes: [] },
        'scopes cannot be blank for credential class svc:aws_access_key',
      ],
      [
        { credential_class: 'svc:aws_access_key', scopes: ['s3://ok-bucket', 'ftp://x'] },
        'scopes not valid for credential class svc:aws_access_key: ftp://x',
      ],
    ];
    for (const [extra, message] of cases) {
      expect(answer(await create(owner, extra))).toEqual([422, [message]]);
    }
    const aws = await create(owner, { credential_class: 'svc:aws_access_key', scopes: ['s3://*'] });
    expect(aws.status).toBe(200);
  });

  it('names are unique on the cluster; ensure_unique_name renames', async () => {
    const first = await create(owner);
    const clash = await other.client.request('POST', '/svc/v1/credentials', {
      json: { credential: body({ name: first.body.name }) },
    });
    expect(answer(clash)).toEqual([
      422,
      [
        `duplicate key value violates unique constraint: credential named '${first.body.name}' already exists in '${SYSTEM}'`,
      ],
    ]);
    const renamed = await other.client.request('POST', '/svc/v1/credentials', {
      query: { ensure_unique_name: 'true' },
      json: { credential: body({ name: first.body.name }) },
    });
    expect(renamed.body.name).toMatch(/^cred \d+ \([0-9a-z]{15}\)$/);
  });
});

describe('credentials: access (§7.2)', () => {
  it('are visible to their manager and whoever they are shared with, roles included', async () => {
    const c = (await create(owner)).body.uuid;
    expect((await other.client.request('GET', `/svc/v1/credentials/${c}`)).status).toBe(404);
    const team = await role(other);
    await grant(team, 'can_read', c);
    const got = await other.client.request('GET', `/svc/v1/credentials/${c}`);
    expect([got.status, got.body.uuid]).toEqual([200, c]);
    const listed = await other.client.request('GET', '/svc/v1/credentials', {
      query: { filters: JSON.stringify([['uuid', '=', c]]) },
    });
    expect(listed.body.items.map((x: any) => x.uuid)).toEqual([c]);
    // Reading is not writing (svc's rule): update and delete need write permission.
    const put = await other.client.request('PUT', `/svc/v1/credentials/${c}`, {
      json: { credential: { description: 'no' } },
    });
    expect(answer(put)).toEqual([403, [`Forbidden: insufficient permission to modify ${c}`]]);
    expect((await other.client.request('DELETE', `/svc/v1/credentials/${c}`)).status).toBe(403);
  });

  it('a given owner_uuid is the manager: a user or role the caller manages', async () => {
    const team = await role(owner);
    const made = await create(owner, { owner_uuid: team });
    expect([made.status, made.body.owner_uuid]).toEqual([200, SYSTEM]);
    const links = await d.current.root.request('GET', `/svc/v1/permissions/${made.body.uuid}`);
    expect(links.body.items.map((l: any) => l.tail_uuid)).toEqual([team]);
    const project = (
      await owner.client.request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project' } },
      })
    ).body.uuid;
    expect(answer(await create(owner, { owner_uuid: project }))).toEqual([
      422,
      ['owner_uuid must be a user or a role'],
    ]);
    expect(answer(await create(other, { owner_uuid: owner.uuid }))).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${owner.uuid}`],
    ]);
    const byAdmin = await d.current.root.request('POST', '/svc/v1/credentials', {
      json: { credential: body({ owner_uuid: other.uuid }) },
    });
    expect(byAdmin.status).toBe(200);
  });

  it('update keeps the system owner and the secret left out; delete takes the links', async () => {
    const c = (await create(owner)).body.uuid;
    const moved = await owner.client.request('PUT', `/svc/v1/credentials/${c}`, {
      json: { credential: { owner_uuid: owner.uuid } },
    });
    expect(answer(moved)).toEqual([422, ['Owner uuid for credential must be system user']]);
    const renamed = await owner.client.request('PUT', `/svc/v1/credentials/${c}`, {
      json: { credential: { external_id: 'new-id', credential_class: 'svc:nope' } },
    });
    expect(answer(renamed)).toEqual([422, ['credential_class svc:nope is not implemented']]);
    const ok = await owner.client.request('PUT', `/svc/v1/credentials/${c}`, {
      json: { credential: { external_id: 'new-id', owner_uuid: SYSTEM } },
    });
    expect([ok.status, ok.body.external_id]).toEqual([200, 'new-id']);
    expect((await owner.client.request('DELETE', `/svc/v1/credentials/${c}`)).status).toBe(200);
    const links = await d.current.root.request('GET', '/svc/v1/links', {
      query: { filters: JSON.stringify([['head_uuid', '=', c]]) },
    });
    expect(links.body.items).toEqual([]);
  });

  it('refuses queries on the secret', async () => {
    const list = (query: Record<string, string>) =>
      owner.client.request('GET', '/svc/v1/credentials', { query });
    expect(answer(await list({ filters: JSON.stringify([['secret', '=', 'x']]) }))).toEqual([
      403,
      ["Cannot filter on 'secret'"],
    ]);
    expect(answer(await list({ where: JSON.stringify({ secret: 'x' }) }))).toEqual([
      403,
      ["Cannot use 'secret' in where clause"],
    ]);
    expect(answer(await list({ order: JSON.stringify(['secret asc']) }))).toEqual([
      403,
      ["Cannot order by 'secret'"],
    ]);
    expect(answer(await list({ select: JSON.stringify(['uuid', 'secret']) }))).toEqual([
      422,
      ["Invalid attribute 'secret' in select parameter"],
    ]);
  });

  it('inactive users cannot create them', async () => {
    const sleeper = await makeUser(d.current, { is_active: false });
    expect(answer(await create(sleeper))).toEqual(inactive);
  });
});

describe('the secret (§7.3, §7.4)', () => {
  let dispatcher: TestDispatcher;
  beforeAll(async () => {
    dispatcher = await TestDispatcher.start(d.current);
  });

  /** The own token of a new Running container of u. */
  async function runningToken(u: TestUser): Promise<string> {
    const image = await makeImage(u.client);
    const cr = await createRequest(
      u.client,
      committedRequest(image, { command: ['cred', randomBytes(4).toString('hex')] }),
    );
    return dispatcher.start(cr.container_uuid);
  }

  it('goes only to a Running container of a reader, is recorded, and expires', async () => {
    const value = newSecret();
    const made = await create(owner, { secret: value, external_id: 'AKIA1' });
    const c = made.body.uuid;
    const fetch = (token: string) =>
      d.current.client(token).request('GET', `/svc/v1/credentials/${c}/secret`);
    expect(answer(await fetch(owner.token))).toEqual([
      403,
      ['Token is not associated with a running container.'],
    ]);
    expect(answer(await fetch(d.current.home.rootToken))).toEqual([
      403,
      ['Token is not associated with a running container.'],
    ]);
    expect(answer(await fetch(await runningToken(other)))).toEqual([404, ['Object not found']]);
    const got = await fetch(await runningToken(owner));
    expect([got.status, got.body]).toEqual([200, { external_id: 'AKIA1', secret: value }]);
    const records = await d.current.root.request('GET', '/svc/v1/logs', {
      query: { filters: JSON.stringify([['object_uuid', '=', c]]) },
    });
    const access = records.body.items.filter((l: any) => l.event_type === 'secret_access');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      object_owner_uuid: SYSTEM,
      owner_uuid: owner.uuid,
      properties: { name: made.body.name, credential_class: 'basic_auth', external_id: 'AKIA1' },
    });
    const past = new Date(Date.now() - 1000).toISOString();
    await owner.client.request('PUT', `/svc/v1/credentials/${c}`, {
      json: { credential: { expires_at: past } },
    });
    expect(answer(await fetch(await runningToken(owner)))).toEqual([
      403,
      ['Credential has expired.'],
    ]);
  });

  it('set by update is the one fetched afterwards', async () => {
    const c = (await create(owner)).body.uuid;
    const value = newSecret();
    const put = await owner.client.request('PUT', `/svc/v1/credentials/${c}`, {
      json: { credential: { secret: value } },
    });
    expect(put.status).toBe(200);
    const got = await d.current
      .client(await runningToken(owner))
      .request('GET', `/svc/v1/credentials/${c}/secret`);
    expect(got.body.secret).toBe(value);
  });

  it('is sealed at rest and erased by the sweep once expired', async () => {
    const value = newSecret();
    const c = (await create(owner, { secret: value })).body.uuid;
    const { rows } = await homeDb().query<{ secret_ciphertext: string }>({
      text: 'SELECT secret_ciphertext FROM credentials WHERE uuid = $1',
      values: [c],
    });
    expect(rows[0]!.secret_ciphertext).toMatch(/^v1:/);
    expect(rows[0]!.secret_ciphertext).not.toContain(value);
    await owner.client.request('PUT', `/svc/v1/credentials/${c}`, {
      json: { credential: { expires_at: new Date(Date.now() - 1000).toISOString() } },
    });
    expect((await d.current.root.request('POST', '/sys/trash_sweep')).status).toBe(204);
    const after = await homeDb().query<{ secret_ciphertext: string | null }>({
      text: 'SELECT secret_ciphertext FROM credentials WHERE uuid = $1',
      values: [c],
    });
    expect(after.rows[0]!.secret_ciphertext).toBeNull();
  });

  it('never appears in a list, a log record, a log line or an error', async () => {
    const value = newSecret();
    await create(owner, { secret: 12345 });
    const bad = await create(owner, { secret: value, credential_class: 'svc:bad' });
    expect(bad.status).toBe(422);
    await owner.client.request('GET', `/svc/v1/credentials?secret=${value}`);
    const texts = [
      (await d.current.root.request('GET', '/svc/v1/credentials', { query: { limit: 1000 } })).text,
      (await d.current.root.request('GET', '/svc/v1/logs', { query: { limit: 1000 } })).text,
      bad.text,
      JSON.stringify(captured.lines),
    ];
    expect(captured.lines.length).toBeGreaterThan(10);
    for (const secret of SECRETS) {
      for (const text of texts) expect(text.includes(secret) ? secret : null).toBeNull();
    }
  });
});

const homeDb = () => d.current.running.cores.find((c) => c.clusterId === 'home1')!.db;
