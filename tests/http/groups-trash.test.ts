/** groups.md §2 and §6: the trash and untrash operations, and the trash sweep. */
import { committedRequest, createRequest, makeImage } from '../harness/containers';
import { homeCore, useDeployment } from '../harness/deployment';
import { TestDispatcher } from '../harness/dispatcher';
import { expectTrashNeedsWrite, makeProject, share, sweepAt, untrashed } from '../harness/groups';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const DAY_MS = 86_400_000;

const post = (u: TestUser, path: string, query: Record<string, unknown> = {}) =>
  u.client.request('POST', path, { query });
const get = (u: TestUser, path: string, query: Record<string, unknown> = {}) =>
  u.client.request('GET', path, { query });

describe('typed client', () => {
  it('has groups.trash and groups.untrash', async () => {
    const u = await makeUser(d.current);
    const { api } = u.client;
    const g = await api.groups.create({ attributes: { group_class: 'project' } });
    const trashed = await api.groups.trash({ uuid: g.uuid });
    expect(trashed.is_trashed).toBe(true);
    const back = await api.groups.untrash({ uuid: g.uuid, ensure_unique_name: true });
    expect([back.uuid, back.is_trashed]).toEqual([g.uuid, false]);
  });
});

describe('trash and untrash (groups.md §6 worked example)', () => {
  let U: TestUser, T: string, K: string, S: string, M: string, name: string;
  beforeAll(async () => {
    U = await makeUser(d.current);
    name = `T ${Date.now()}`;
    T = (await makeProject(U.client, { name })).uuid;
    const mk = async (type: string, body: Record<string, unknown>) =>
      (await U.client.request('POST', `/svc/v1/${type}`, { json: body })).body.uuid as string;
    K = await mk('collections', { collection: { owner_uuid: T } });
    S = (await makeProject(U.client, { name: 'S', owner_uuid: T })).uuid;
    M = await mk('collections', { collection: { owner_uuid: S } });
  });

  it('POST trash is delete: trash_at now, delete_at + BlobSigningTTL, everything beneath hidden', async () => {
    const res = await post(U, `/svc/v1/groups/${T}/trash`);
    expect([res.status, res.body.uuid, res.body.is_trashed]).toEqual([200, T, true]);
    expect(Math.abs(Date.parse(res.body.trash_at) - Date.now())).toBeLessThan(60_000);
    expect((Date.parse(res.body.delete_at) - Date.parse(res.body.trash_at)) / 1000).toBe(1209600);
    for (const path of [`groups/${T}`, `groups/${S}`, `collections/${K}`, `collections/${M}`])
      expect([path, (await get(U, `/svc/v1/${path}`)).status]).toEqual([path, 404]);
    const again = await post(U, `/svc/v1/groups/${T}/trash`);
    expect([again.status, again.body.trash_at]).toEqual([200, res.body.trash_at]);
  });

  it('refuses to untrash what is hidden only by an ancestor', async () => {
    const res = await post(U, `/svc/v1/groups/${S}/untrash`);
    expect([res.status, res.body.errors]).toEqual([422, ['Item is not trashed, cannot untrash']]);
  });

  it('a trashed group holds no name; untrash then clashes, or renames with ensure_unique_name', async () => {
    expect((await makeProject(U.client, { name })).name).toBe(name);
    const clash = await post(U, `/svc/v1/groups/${T}/untrash`);
    expect([clash.status, clash.body.errors]).toEqual([
      422,
      [
        `duplicate key value violates unique constraint: group named '${name}' already exists in '${U.uuid}'`,
      ],
    ]);
    expect((await get(U, `/svc/v1/groups/${T}`)).status).toBe(404);
    const res = await post(U, `/svc/v1/groups/${T}/untrash`, { ensure_unique_name: true });
    expect(untrashed(res)).toEqual([200, `${name} (${T.slice(-15)})`, false, null, null]);
    for (const path of [`groups/${T}`, `groups/${S}`, `collections/${K}`, `collections/${M}`])
      expect([path, (await get(U, `/svc/v1/${path}`)).status]).toEqual([path, 200]);
  });

  it('untrash without a clash keeps the name', async () => {
    const g = await makeProject(U.client, { name: `plain ${Date.now()}` });
    await post(U, `/svc/v1/groups/${g.uuid}/trash`);
    const res = await post(U, `/svc/v1/groups/${g.uuid}/untrash`, { ensure_unique_name: true });
    expect([res.status, res.body.name, res.body.is_trashed]).toEqual([200, g.name, false]);
  });

  it('refuses to untrash a group that is not trashed', async () => {
    const g = await makeProject(U.client);
    const res = await post(U, `/svc/v1/groups/${g.uuid}/untrash`);
    expect([res.status, res.body.errors]).toEqual([422, ['Item is not trashed, cannot untrash']]);
  });
});

describe('trash and untrash permissions', () => {
  it('need write: readers get 403, others 404', async () => {
    const owner = await makeUser(d.current);
    const g = await makeProject(owner.client);
    await expectTrashNeedsWrite(d.current, owner, g.uuid, `groups/${g.uuid}`);
  });

  it('a role needs manage to be trashed', async () => {
    const owner = await makeUser(d.current);
    const member = await makeUser(d.current);
    const role = await makeProject(owner.client, {
      group_class: 'role',
      name: `role ${Date.now()}`,
    });
    await share(owner.client, member.uuid, role.uuid, 'can_write');
    expect((await post(member, `/svc/v1/groups/${role.uuid}/trash`)).status).toBe(403);
    expect((await post(owner, `/svc/v1/groups/${role.uuid}/trash`)).status).toBe(200);
  });
});

describe('delete_at passed', () => {
  it('untrash and trash_at: null both give 422', async () => {
    const u = await makeUser(d.current);
    const g = await makeProject(u.client);
    await post(u, `/svc/v1/groups/${g.uuid}/trash`);
    await homeCore(d.current).db.query({
      text: `UPDATE groups SET trash_at = now() - interval '2 days', delete_at = now() - interval '1 day' WHERE uuid = $1`,
      values: [g.uuid],
    });
    const message = 'delete_at time has already passed, cannot untrash';
    const res = await post(u, `/svc/v1/groups/${g.uuid}/untrash`);
    expect([res.status, res.body.errors]).toEqual([422, [message]]);
    const put = await u.client.request('PUT', `/svc/v1/groups/${g.uuid}`, {
      query: { include_trash: true },
      json: { group: { trash_at: null } },
    });
    expect([put.status, put.body.errors]).toEqual([422, [message]]);
  });
});

describe('container priorities beneath (containers.md §7)', () => {
  it('trash drops them to 0; untrash brings them back', async () => {
    const u = await makeUser(d.current);
    const image = await makeImage(u.client);
    const dispatcher = await TestDispatcher.start(d.current);
    {
      const top = await makeProject(u.client);
      const sub = await makeProject(u.client, { owner_uuid: top.uuid });
      const cr = await createRequest(
        u.client,
        committedRequest(image, {
          owner_uuid: sub.uuid,
          priority: 7,
          command: ['t', `${Date.now()}`],
        }),
      );
      await dispatcher.start(cr.container_uuid);
      const priority = async () =>
        (await d.current.root.request('GET', `/svc/v1/containers/${cr.container_uuid}`)).body
          .priority;
      const before = await priority();
      expect(before).toBeGreaterThan(0);
      await post(u, `/svc/v1/groups/${top.uuid}/trash`);
      expect(await priority()).toBe(0);
      await post(u, `/svc/v1/groups/${top.uuid}/untrash`);
      expect(await priority()).toBe(before);
    }
  });
});

describe('the trash sweep', () => {
  it('runs as a job of the core', () => {
    expect(Object.keys(homeCore(d.current).jobs.stats())).toContain('trash-sweep');
  });

  it('deletes a group past delete_at with everything it owns at any depth, and keeps the rest', async () => {
    const u = await makeUser(d.current);
    const other = await makeUser(d.current);
    const T = await makeProject(u.client);
    const S = await makeProject(u.client, { owner_uuid: T.uuid });
    const mk = async (type: string, key: string, owner: string) =>
      (
        await u.client.request('POST', `/svc/v1/${type}`, {
          json: { [key]: { owner_uuid: owner } },
        })
      ).body.uuid as string;
    const K = await mk('collections', 'collection', T.uuid);
    const M = await mk('collections', 'collection', S.uuid);
    const W = await mk('workflows', 'workflow', S.uuid);
    const link = await share(u.client, other.uuid, M, 'can_read');
    const kept = await makeProject(u.client);
    const keptTrashed = await makeProject(u.client);
    await post(u, `/svc/v1/groups/${keptTrashed.uuid}/trash`);
    await post(u, `/svc/v1/groups/${T.uuid}/trash`);

    await sweepAt(d.current, Date.now() + 13 * DAY_MS);
    expect((await get(u, `/svc/v1/collections/${M}`, { include_trash: true })).status).toBe(200);

    const counts = await sweepAt(d.current, Date.now() + 15 * DAY_MS);
    expect(counts.deleted).toBeGreaterThanOrEqual(2);
    for (const path of [
      `groups/${T.uuid}`,
      `groups/${S.uuid}`,
      `collections/${K}`,
      `collections/${M}`,
      `workflows/${W}`,
      `links/${link}`,
      `groups/${keptTrashed.uuid}`,
    ]) {
      const res = await d.current.root.request('GET', `/svc/v1/${path}`, {
        query: { include_trash: true },
      });
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await get(u, `/svc/v1/groups/${kept.uuid}`)).status).toBe(200);
    const readable = await get(other, '/svc/v1/collections', { filters: [['uuid', '=', M]] });
    expect(readable.body.items).toEqual([]);
  });

  it('deletes container requests beneath, their containers left with priority 0', async () => {
    const u = await makeUser(d.current);
    const image = await makeImage(u.client);
    const dispatcher = await TestDispatcher.start(d.current);
    const T = await makeProject(u.client);
    const cr = await createRequest(
      u.client,
      committedRequest(image, { owner_uuid: T.uuid, priority: 9, command: ['s', `${Date.now()}`] }),
    );
    await dispatcher.start(cr.container_uuid);
    await post(u, `/svc/v1/groups/${T.uuid}/trash`);
    await sweepAt(d.current, Date.now() + 15 * DAY_MS);
    const gone = await d.current.root.request('GET', `/svc/v1/container_requests/${cr.uuid}`, {
      query: { include_trash: true },
    });
    expect(gone.status).toBe(404);
    const container = await d.current.root.request(
      'GET',
      `/svc/v1/containers/${cr.container_uuid}`,
    );
    expect([container.status, container.body.priority]).toEqual([200, 0]);
  });

  it('applies a future trash_at once it passes: a role loses its outgoing links', async () => {
    const u = await makeUser(d.current);
    const member = await makeUser(d.current);
    const project = await makeProject(u.client);
    const role = await makeProject(u.client, { group_class: 'role', name: `later ${Date.now()}` });
    await share(u.client, member.uuid, role.uuid, 'can_read');
    const outgoing = await share(u.client, role.uuid, project.uuid, 'can_read');
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const set = await u.client.request('PUT', `/svc/v1/groups/${role.uuid}`, {
      json: { group: { trash_at: soon } },
    });
    expect([set.status, set.body.is_trashed]).toEqual([200, false]);
    expect((await get(member, `/svc/v1/groups/${project.uuid}`)).status).toBe(200);
    await sweepAt(d.current, Date.now() + 2 * 3_600_000);
    const res = await d.current.root.request('GET', `/svc/v1/links/${outgoing}`);
    expect(res.status).toBe(404);
    expect((await get(member, `/svc/v1/groups/${project.uuid}`)).status).toBe(404);
  });
});

describe('async (groups.md §9)', () => {
  it('answers 202 on create and update with async=true', async () => {
    const u = await makeUser(d.current);
    const made = await u.client.request('POST', '/svc/v1/groups', {
      query: { async: true },
      json: { group: { group_class: 'project', name: `async ${Date.now()}` } },
    });
    expect([made.status, made.body.group_class]).toEqual([202, 'project']);
    const upd = await u.client.request('PUT', `/svc/v1/groups/${made.body.uuid}`, {
      query: { async: true },
      json: { group: { description: 'd' } },
    });
    expect([upd.status, upd.body.description]).toEqual([202, 'd']);
    const bad = await u.client.request('POST', '/svc/v1/groups', {
      query: { async: true },
      json: { group: { group_class: 'nope' } },
    });
    expect(bad.status).toBe(422);
  });
});
