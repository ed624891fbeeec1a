/** groups.md §7: frozen projects, with the default settings. */
import { builtInUuids } from '@svc/contract';
import { committedRequest, createRequest, makeImage } from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { makeProject, share } from '../harness/groups';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();

const put = (u: TestUser, type: string, uuid: string, attrs: Record<string, unknown>) =>
  u.client.request('PUT', `/svc/v1/${type}/${uuid}`, { json: attrs });
const freeze = (u: TestUser, uuid: string, value: string | null) =>
  put(u, 'groups', uuid, { group: { frozen_by_uuid: value } });
const isFrozen = (uuid: string) => [`${uuid} is frozen and cannot be modified`];
const NEW_OWNER = ['owner_uuid cannot be set or changed because new owner is frozen'];
const OLD_OWNER = ['owner_uuid cannot be set or changed because old owner is frozen'];

describe('freezing (worked example)', () => {
  let M: TestUser, W: TestUser, A: TestUser, R: string, P: string, Q: string;
  let inQ: string, outside: string, wf: string, readLink: string, tag: string;
  let S2: string, inS2: string, trashedInQ: string;
  beforeAll(async () => {
    [M, W, A] = await Promise.all([
      makeUser(d.current),
      makeUser(d.current),
      makeUser(d.current, { is_admin: true }),
    ]);
    R = (await makeProject(M.client)).uuid;
    P = (await makeProject(M.client, { owner_uuid: R, name: 'P' })).uuid;
    Q = (await makeProject(M.client, { owner_uuid: P, name: 'Q' })).uuid;
    await share(M.client, W.uuid, R, 'can_write');
    const mk = async (type: string, key: string, attrs: Record<string, unknown>) => {
      const res = await M.client.request('POST', `/svc/v1/${type}`, { json: { [key]: attrs } });
      if (res.status !== 200) throw new Error(res.text);
      return res.body.uuid as string;
    };
    inQ = await mk('collections', 'collection', { owner_uuid: Q, name: 'in Q' });
    outside = await mk('collections', 'collection', { owner_uuid: R, name: 'outside' });
    wf = await mk('workflows', 'workflow', { owner_uuid: Q, name: 'wf' });
    tag = await mk('links', 'link', { link_class: 'tag', name: 'before', head_uuid: inQ });
    S2 = (await makeProject(M.client, { owner_uuid: P, name: 'S2' })).uuid;
    inS2 = await mk('collections', 'collection', { owner_uuid: S2 });
    trashedInQ = await mk('collections', 'collection', { owner_uuid: Q, is_trashed: true });
    await M.client.request('DELETE', `/svc/v1/groups/${S2}`);
  });

  it('refuses a writer (403), and a value other than the caller (422)', async () => {
    const w = await freeze(W, P, W.uuid);
    expect([w.status, w.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${P}`],
    ]);
    const other = await freeze(M, P, A.uuid);
    expect([other.status, other.body.errors]).toEqual([
      422,
      ["frozen_by_uuid can only be set to the current user's UUID"],
    ]);
    const admin = await freeze(A, P, M.uuid);
    expect([admin.status, admin.body.errors]).toEqual([
      422,
      ["frozen_by_uuid can only be set to the current user's UUID"],
    ]);
  });

  it('lets a manager freeze with their own uuid', async () => {
    const res = await freeze(M, P, M.uuid);
    expect([res.status, res.body.frozen_by_uuid]).toEqual([200, M.uuid]);
  });

  it('refuses every change to the project itself, even by admins', async () => {
    for (const attrs of [
      { name: 'renamed' },
      { description: 'x' },
      { properties: { a: 1 } },
      { owner_uuid: M.uuid },
      { trash_at: '2999-01-01T00:00:00Z' },
      { is_trashed: true },
    ]) {
      const res = await put(A, 'groups', P, { group: attrs });
      expect([attrs, res.status, res.body.errors]).toEqual([attrs, 403, isFrozen(P)]);
    }
    for (const [method, path] of [
      ['DELETE', `/svc/v1/groups/${P}`],
      ['POST', `/svc/v1/groups/${P}/trash`],
    ] as const) {
      const res = await A.client.request(method, path);
      expect([path, res.status, res.body.errors]).toEqual([path, 403, isFrozen(P)]);
    }
  });

  it('refuses changes beneath it: subprojects, collections, workflows', async () => {
    const rename = await put(A, 'groups', Q, { group: { name: 'x' } });
    expect([rename.status, rename.body.errors]).toEqual([403, isFrozen(Q)]);
    const trashQ = await A.client.request('POST', `/svc/v1/groups/${Q}/trash`);
    expect([trashQ.status, trashQ.body.errors]).toEqual([403, isFrozen(Q)]);
    const freezeQ = await freeze(M, Q, M.uuid);
    expect([freezeQ.status, freezeQ.body.errors]).toEqual([403, isFrozen(Q)]);
    const coll = await put(A, 'collections', inQ, { collection: { name: 'y' } });
    expect([coll.status, coll.body.errors]).toEqual([403, isFrozen(inQ)]);
    const delColl = await A.client.request('DELETE', `/svc/v1/collections/${inQ}`);
    expect([delColl.status, delColl.body.errors]).toEqual([403, isFrozen(inQ)]);
    const trashColl = await put(M, 'collections', inQ, { collection: { is_trashed: true } });
    expect([trashColl.status, trashColl.body.errors]).toEqual([403, isFrozen(inQ)]);
    const wfUpdate = await put(M, 'workflows', wf, { workflow: { name: 'z' } });
    expect([wfUpdate.status, wfUpdate.body.errors]).toEqual([403, isFrozen(wf)]);
    const wfDelete = await M.client.request('DELETE', `/svc/v1/workflows/${wf}`);
    expect([wfDelete.status, wfDelete.body.errors]).toEqual([403, isFrozen(wf)]);
  });

  it('refuses creating in it and moving into or out of it', async () => {
    for (const [type, key, owner] of [
      ['collections', 'collection', Q],
      ['collections', 'collection', P],
      ['workflows', 'workflow', Q],
      ['groups', 'group', P],
    ] as const) {
      const attrs = { owner_uuid: owner, ...(type === 'groups' ? { group_class: 'project' } : {}) };
      const res = await A.client.request('POST', `/svc/v1/${type}`, { json: { [key]: attrs } });
      expect([type, owner, res.status, res.body.errors]).toEqual([type, owner, 403, NEW_OWNER]);
    }
    const into = await put(M, 'collections', outside, { collection: { owner_uuid: Q } });
    expect([into.status, into.body.errors]).toEqual([403, NEW_OWNER]);
    const out = await put(A, 'collections', inQ, { collection: { owner_uuid: R } });
    expect([out.status, out.body.errors]).toEqual([403, OLD_OWNER]);
    const groupOut = await put(A, 'groups', Q, { group: { owner_uuid: R } });
    expect([groupOut.status, groupOut.body.errors]).toEqual([403, OLD_OWNER]);
  });

  it('refuses container requests in it', async () => {
    const image = await makeImage(M.client);
    const res = await M.client.request('POST', '/svc/v1/container_requests', {
      json: { container_request: committedRequest(image, { owner_uuid: Q }) },
    });
    expect([res.status, res.body.errors]).toEqual([403, NEW_OWNER]);
  });

  it('refuses to trash a project that contains it', async () => {
    const res = await M.client.request('DELETE', `/svc/v1/groups/${R}`);
    expect([res.status, res.body.errors]).toEqual([
      422,
      [`cannot trash project containing frozen project ${P}`],
    ]);
    const viaTrash = await M.client.request('POST', `/svc/v1/groups/${R}/trash`);
    expect(viaTrash.status).toBe(422);
    expect((await M.client.request('GET', `/svc/v1/groups/${R}`)).body.is_trashed).toBe(false);
  });

  it('still allows sharing: permission links on it and in it', async () => {
    const reader = await makeUser(d.current);
    readLink = await share(M.client, reader.uuid, P, 'can_read');
    expect((await reader.client.request('GET', `/svc/v1/collections/${inQ}`)).status).toBe(200);
    const upgrade = await put(M, 'links', readLink, { link: { name: 'can_write' } });
    expect(upgrade.status).toBe(200);
    expect((await M.client.request('DELETE', `/svc/v1/links/${readLink}`)).status).toBe(200);
    const onItem = await share(M.client, reader.uuid, inQ, 'can_read');
    expect(onItem).toMatch(/-o0j2j-/);
  });

  it('refuses links other than permission links whose head is in it', async () => {
    for (const head of [P, Q, inQ, wf]) {
      const res = await M.client.request('POST', '/svc/v1/links', {
        json: { link: { link_class: 'tag', name: 'during', head_uuid: head } },
      });
      expect([head, res.status, res.body.errors]).toEqual([head, 403, isFrozen(head)]);
    }
    const upd = await put(M, 'links', tag, { link: { name: 'renamed' } });
    expect([upd.status, upd.body.errors]).toEqual([403, isFrozen(tag)]);
    const del = await M.client.request('DELETE', `/svc/v1/links/${tag}`);
    expect([del.status, del.body.errors]).toEqual([403, isFrozen(tag)]);
  });

  it('reports can_write false on it and beneath it for everyone; can_manage unchanged', async () => {
    for (const uuid of [P, Q]) {
      for (const u of [M, A]) {
        const res = await u.client.request('GET', `/svc/v1/groups/${uuid}`);
        expect([uuid, res.body.can_write, res.body.can_manage]).toEqual([uuid, false, true]);
      }
    }
    const listed = await M.client.request('GET', '/svc/v1/groups', {
      query: { filters: [['uuid', 'in', [R, P, Q]]], select: ['uuid', 'can_write'] },
    });
    const byUuid = Object.fromEntries(
      listed.body.items.map((i: { uuid: string; can_write: boolean }) => [i.uuid, i.can_write]),
    );
    expect(byUuid).toEqual({ [R]: true, [P]: false, [Q]: false });
  });

  it('writable_by (permissions.md §10): [] unless the caller could unfreeze it', async () => {
    const writableBy = async (u: TestUser, uuid: string) =>
      (await u.client.request('GET', `/svc/v1/groups/${uuid}`)).body.writable_by;
    // M manages P through R and may unfreeze it; so may an admin; the writer W may not
    expect(await writableBy(M, P)).toEqual([R, M.uuid]);
    expect(await writableBy(A, P)).toEqual([R, A.uuid]);
    expect(await writableBy(W, P)).toEqual([]);
    // Q lies beneath the frozen P: nobody can unfreeze it on its own
    for (const u of [M, A, W]) expect(await writableBy(u, Q)).toEqual([]);
  });

  it('hides trashed objects inside it from non-admins, even with include_trash', async () => {
    for (const [type, uuid] of [
      ['groups', S2],
      ['collections', inS2],
      ['collections', trashedInQ],
    ] as const) {
      const query = { include_trash: true };
      const mine = await M.client.request('GET', `/svc/v1/${type}/${uuid}`, { query });
      expect([uuid, mine.status]).toEqual([uuid, 404]);
      const admin = await A.client.request('GET', `/svc/v1/${type}/${uuid}`, { query });
      expect([uuid, admin.status]).toEqual([uuid, 200]);
    }
    const listed = await M.client.request('GET', '/svc/v1/collections', {
      query: { include_trash: true, filters: [['uuid', 'in', [inQ, inS2, trashedInQ]]] },
    });
    expect(listed.body.items.map((i: { uuid: string }) => i.uuid)).toEqual([inQ]);
    const visible = await M.client.request('GET', `/svc/v1/groups/${Q}`, {
      query: { include_trash: true },
    });
    expect(visible.status).toBe(200);
  });

  it('refuses to untrash what is inside it', async () => {
    const res = await A.client.request('POST', `/svc/v1/groups/${S2}/untrash`);
    expect([res.status, res.body.errors]).toEqual([403, isFrozen(S2)]);
  });

  it('unfreezing may change nothing else', async () => {
    const res = await put(M, 'groups', P, { group: { frozen_by_uuid: null, name: 'other' } });
    expect([res.status, res.body.errors]).toEqual([403, isFrozen(P)]);
  });

  it('unfreezing needs manage', async () => {
    const res = await freeze(W, P, null);
    expect([res.status, res.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${P}`],
    ]);
  });

  it('a manager unfreezes ("" is null), and changes work again', async () => {
    const res = await freeze(M, P, '');
    expect([res.status, res.body.frozen_by_uuid]).toEqual([200, null]);
    expect((await put(M, 'groups', Q, { group: { name: 'Q2' } })).status).toBe(200);
    expect((await put(M, 'collections', inQ, { collection: { owner_uuid: R } })).status).toBe(200);
    expect((await M.client.request('GET', `/svc/v1/groups/${Q}`)).body.can_write).toBe(true);
    expect((await M.client.request('DELETE', `/svc/v1/links/${tag}`)).status).toBe(200);
  });

  it('an admin freezes with their own uuid and unfreezes', async () => {
    expect((await freeze(A, P, A.uuid)).status).toBe(200);
    expect((await freeze(A, P, null)).status).toBe(200);
  });
});

describe('freeze preconditions', () => {
  let M: TestUser;
  beforeAll(async () => {
    M = await makeUser(d.current);
  });

  it('only projects can be frozen', async () => {
    const role = await makeProject(M.client, { group_class: 'role', name: `r ${Date.now()}` });
    const filter = await makeProject(M.client, {
      group_class: 'filter',
      properties: { filters: [] },
    });
    for (const g of [role, filter]) {
      const res = await freeze(M, g.uuid, M.uuid);
      expect([g.group_class, res.status, res.body.errors]).toEqual([
        g.group_class,
        422,
        ['frozen_by_uuid cannot be modified on a non-project group'],
      ]);
    }
  });

  it('a trashed project, one beneath a trashed one, or one with trash_at set cannot be frozen', async () => {
    const message = ['frozen_by_uuid cannot be set on a trashed project'];
    const top = await makeProject(M.client);
    const sub = await makeProject(M.client, { owner_uuid: top.uuid });
    const later = await makeProject(M.client, { trash_at: '2999-01-01T00:00:00Z' });
    const res = await freeze(M, later.uuid, M.uuid);
    expect([res.status, res.body.errors]).toEqual([422, message]);
    await M.client.request('DELETE', `/svc/v1/groups/${top.uuid}`);
    for (const uuid of [top.uuid, sub.uuid]) {
      const r = await M.client.request('PUT', `/svc/v1/groups/${uuid}`, {
        query: { include_trash: true },
        json: { group: { frozen_by_uuid: M.uuid } },
      });
      expect([uuid, r.status, r.body.errors]).toEqual([uuid, 422, message]);
    }
  });

  it('a project with a Committed request beneath it cannot be frozen', async () => {
    const top = await makeProject(M.client);
    const sub = await makeProject(M.client, { owner_uuid: top.uuid });
    const image = await makeImage(M.client);
    const cr = await createRequest(
      M.client,
      committedRequest(image, { owner_uuid: sub.uuid, command: ['f', `${Date.now()}`] }),
    );
    const res = await freeze(M, top.uuid, M.uuid);
    expect([res.status, res.body.errors]).toEqual([
      422,
      [
        `frozen_by_uuid cannot freeze project containing container request ${cr.uuid} with state = Committed`,
      ],
    ]);
  });

  it('the system user (root token) follows the same rules', async () => {
    const g = await makeProject(d.current.root);
    const res = await d.current.root.request('PUT', `/svc/v1/groups/${g.uuid}`, {
      json: { group: { frozen_by_uuid: builtInUuids(d.current.home.id).systemUser } },
    });
    expect(res.status).toBe(200);
    const rename = await d.current.root.request('PUT', `/svc/v1/groups/${g.uuid}`, {
      json: { group: { name: 'no' } },
    });
    expect([rename.status, rename.body.errors]).toEqual([403, isFrozen(g.uuid)]);
  });
});
