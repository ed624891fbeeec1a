import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();

describe('what trash hides (groups.md §6 worked example)', () => {
  let U: TestUser, T: string, K: string, S: string, M: string;
  const get = (path: string, query: Record<string, unknown> = {}) =>
    U.client.request('GET', path, { query });
  beforeAll(async () => {
    U = await makeUser(d.current);
    const mk = async (type: string, body: Record<string, unknown>) =>
      (await U.client.request('POST', `/svc/v1/${type}`, { json: body })).body.uuid as string;
    T = await mk('groups', { group: { name: 'T', group_class: 'project' } });
    K = await mk('collections', { collection: { owner_uuid: T } });
    S = await mk('groups', { group: { name: 'S', group_class: 'project', owner_uuid: T } });
    M = await mk('collections', { collection: { owner_uuid: S } });
  });

  it('trashes on delete and hides the group and everything beneath it', async () => {
    const del = await U.client.request('DELETE', `/svc/v1/groups/${T}`);
    expect(del.status).toBe(200);
    expect(del.body.is_trashed).toBe(true);
    const seconds = (Date.parse(del.body.delete_at) - Date.parse(del.body.trash_at)) / 1000;
    expect(seconds).toBe(1209600);
    expect((await get(`/svc/v1/groups/${T}`)).status).toBe(404);
    expect((await get(`/svc/v1/groups/${T}`, { include_trash: true })).status).toBe(200);
    for (const [type, uuid] of [
      ['collections', M],
      ['collections', K],
      ['groups', S],
    ] as const) {
      expect([uuid, (await get(`/svc/v1/${type}/${uuid}`)).status]).toEqual([uuid, 404]);
    }
    const list = await get('/svc/v1/collections', { limit: 1000 });
    expect(list.body.items.map((i: { uuid: string }) => i.uuid)).not.toEqual(
      expect.arrayContaining([K]),
    );
    const withTrash = await get('/svc/v1/collections', { include_trash: true, limit: 1000 });
    expect(withTrash.body.items.map((i: { uuid: string }) => i.uuid)).toEqual(
      expect.arrayContaining([K, M]),
    );
    const sub = await get(`/svc/v1/groups/${S}`, { include_trash: true });
    expect([sub.status, sub.body.is_trashed]).toEqual([200, false]);
  });

  it('deleting again finds the trashed group and changes nothing', async () => {
    const before = await get(`/svc/v1/groups/${T}`, { include_trash: true });
    const again = await U.client.request('DELETE', `/svc/v1/groups/${T}`);
    expect([again.status, again.body.trash_at]).toEqual([200, before.body.trash_at]);
  });

  it('shows everything again when the trash is emptied by hand', async () => {
    const untrash = await U.client.request('PUT', `/svc/v1/groups/${T}`, {
      query: { include_trash: true },
      json: { group: { trash_at: null } },
    });
    expect([untrash.status, untrash.body.is_trashed, untrash.body.delete_at]).toEqual([
      200,
      false,
      null,
    ]);
    for (const [type, uuid] of [
      ['collections', M],
      ['collections', K],
      ['groups', S],
    ] as const) {
      expect([uuid, (await get(`/svc/v1/${type}/${uuid}`)).status]).toEqual([uuid, 200]);
    }
  });
});

describe('trash fields', () => {
  it.each([[{ trash_at: '2001-01-01T00:00:00Z' }], [{ is_trashed: true }]] as [
    Record<string, unknown>,
  ][])('%j trashes now with delete_at = trash_at + BlobSigningTTL', async (attrs) => {
    const u = await makeUser(d.current);
    const res = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: attrs },
    });
    expect(res.status).toBe(200);
    expect(res.body.is_trashed).toBe(true);
    expect(Math.abs(Date.parse(res.body.trash_at) - Date.now())).toBeLessThan(60_000);
    expect((Date.parse(res.body.delete_at) - Date.parse(res.body.trash_at)) / 1000).toBe(1209600);
  });

  it('schedules trash in the future without hiding yet', async () => {
    const u = await makeUser(d.current);
    const res = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { trash_at: '2999-01-01T00:00:00Z' } },
    });
    expect([res.body.is_trashed, res.body.delete_at]).toEqual([
      false,
      '2999-01-15T00:00:00.000000000Z',
    ]);
    expect((await u.client.request('GET', `/svc/v1/collections/${res.body.uuid}`)).status).toBe(
      200,
    );
  });

  it.each([
    [
      { delete_at: '2999-01-01' },
      'delete_at must be set if trash_at is set, and must be null otherwise',
    ],
    [
      { trash_at: '2999-01-02', delete_at: '2999-01-01' },
      'delete_at must not be earlier than trash_at',
    ],
  ])('refuses %j', async (attrs, message) => {
    const u = await makeUser(d.current);
    const res = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: attrs },
    });
    expect([res.status, res.body.errors]).toEqual([422, [message]]);
  });

  it('untrashes with is_trashed false', async () => {
    const u = await makeUser(d.current);
    const made = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { is_trashed: true } },
    });
    const back = await u.client.request('PUT', `/svc/v1/collections/${made.body.uuid}`, {
      query: { include_trash: true },
      json: { collection: { is_trashed: false } },
    });
    expect([back.status, back.body.is_trashed, back.body.trash_at, back.body.delete_at]).toEqual([
      200,
      false,
      null,
      null,
    ]);
  });
});

describe('unique names', () => {
  it('clash within an owner, rename with ensure_unique_name, and free up when trashed', async () => {
    const u = await makeUser(d.current);
    const first = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'Same', group_class: 'project' } },
    });
    const clash = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'Same', group_class: 'role' } },
    });
    expect(clash.status).toBe(200); // roles belong to the system user: another owner
    const again = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'Same', group_class: 'filter', properties: { filters: [] } } },
    });
    expect([again.status, again.body.errors]).toEqual([
      422,
      [
        `duplicate key value violates unique constraint: group named 'Same' already exists in '${u.uuid}'`,
      ],
    ]);
    const renamed = await u.client.request('POST', '/svc/v1/groups', {
      query: { ensure_unique_name: true },
      json: { group: { name: 'Same', group_class: 'project' } },
    });
    expect(renamed.body.name).toBe(`Same (${renamed.body.uuid.slice(-15)})`);
    await u.client.request('DELETE', `/svc/v1/groups/${first.body.uuid}`);
    const reuse = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'Same', group_class: 'project' } },
    });
    expect(reuse.status).toBe(200);
  });

  it('apply to collections, never to null names, and to renames', async () => {
    const u = await makeUser(d.current);
    for (let i = 0; i < 2; i++)
      expect((await u.client.request('POST', '/svc/v1/collections', { json: {} })).status).toBe(
        200,
      );
    await u.client.request('POST', '/svc/v1/collections', { json: { collection: { name: 'c1' } } });
    const c2 = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { name: 'c2' } },
    });
    const rename = await u.client.request('PUT', `/svc/v1/collections/${c2.body.uuid}`, {
      json: { collection: { name: 'c1' } },
    });
    expect([rename.status, rename.body.errors]).toEqual([
      422,
      [
        `duplicate key value violates unique constraint: collection named 'c1' already exists in '${u.uuid}'`,
      ],
    ]);
    const long = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { name: 'x'.repeat(256) } },
    });
    expect([long.status, long.body.errors]).toEqual([
      422,
      ['name is too long (maximum is 255 characters)'],
    ]);
  });
});
