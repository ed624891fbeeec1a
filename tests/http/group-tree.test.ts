/**
 * The group tree behind trash and recursive contents (groups.md §3 step 3, §6): moves of whole
 * subtrees, trash of an ancestor, untrash and the sweep, seen through the API, and the closure
 * table (group_ancestors) checked against a walk of the owners after each of them.
 */
import { homeCore, useDeployment } from '../harness/deployment';
import { makeProject, sweepAt } from '../harness/groups';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const DAY_MS = 86_400_000;

type Item = { uuid: string };
const contentsOf = (u: TestUser, query: Record<string, unknown>) =>
  u.client.request('GET', '/svc/v1/groups/contents', { query });
const uuids = (res: { body: { items: Item[] } }) => res.body.items.map((i) => i.uuid).sort();
const sorted = (xs: string[]) => [...xs].sort();

async function collection(u: TestUser, owner: string): Promise<string> {
  const res = await u.client.request('POST', '/svc/v1/collections', {
    json: { collection: { owner_uuid: owner } },
  });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
  return res.body.uuid as string;
}

async function move(u: TestUser, group: string, owner: string, includeTrash = false) {
  const res = await u.client.request('PUT', `/svc/v1/groups/${group}`, {
    query: includeTrash ? { include_trash: true } : {},
    json: { group: { owner_uuid: owner } },
  });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
}

/**
 * Rows of group_ancestors for these groups (as group or as ancestor) that a walk up the owners
 * does not give, and rows the walk gives that the table lacks: both empty when the triggers
 * kept it right.
 */
async function closureDrift(groups: string[]): Promise<{ extra: unknown[]; missing: unknown[] }> {
  const walk = `WITH RECURSIVE up(uuid, anc) AS (
      SELECT uuid, uuid FROM groups
      UNION SELECT up.uuid, g.owner_uuid FROM up JOIN groups g ON g.uuid = up.anc)
    SELECT uuid AS group_uuid, anc AS ancestor_uuid FROM up`;
  const mine = `(group_uuid = ANY($1::text[]) OR ancestor_uuid = ANY($1::text[]))`;
  const q = async (text: string) =>
    (await homeCore(d.current).db.query({ text, values: [groups] })).rows as unknown[];
  return {
    extra: await q(`SELECT group_uuid, ancestor_uuid FROM group_ancestors WHERE ${mine}
                    EXCEPT SELECT * FROM (${walk}) w WHERE ${mine}`),
    missing: await q(`SELECT * FROM (${walk}) w WHERE ${mine}
                      EXCEPT SELECT group_uuid, ancestor_uuid FROM group_ancestors WHERE ${mine}`),
  };
}

describe('moving a subtree', () => {
  let U: TestUser, A: string, B: string, C: string, X: string, K: string, L: string;
  beforeAll(async () => {
    U = await makeUser(d.current);
    A = (await makeProject(U.client, { name: 'A' })).uuid;
    B = (await makeProject(U.client, { name: 'B', owner_uuid: A })).uuid;
    C = (await makeProject(U.client, { name: 'C', owner_uuid: B })).uuid;
    X = (await makeProject(U.client, { name: 'X' })).uuid;
    K = await collection(U, C);
    L = await collection(U, A);
  });

  it('recursive contents follow the subtree to its new owner', async () => {
    expect(uuids(await contentsOf(U, { uuid: A, recursive: true }))).toEqual(sorted([B, C, K, L]));
    await move(U, B, X);
    expect(uuids(await contentsOf(U, { uuid: A, recursive: true }))).toEqual([L]);
    expect(uuids(await contentsOf(U, { uuid: X, recursive: true }))).toEqual(sorted([B, C, K]));
    expect(await closureDrift([A, B, C, X])).toEqual({ extra: [], missing: [] });
  });

  it('trash of the new owner hides the moved subtree; moving it out shows it again', async () => {
    expect((await U.client.request('POST', `/svc/v1/groups/${X}/trash`)).status).toBe(200);
    for (const path of [`groups/${B}`, `groups/${C}`, `collections/${K}`])
      expect([path, (await U.client.request('GET', `/svc/v1/${path}`)).status]).toEqual([
        path,
        404,
      ]);
    const hidden = await contentsOf(U, { uuid: U.uuid, recursive: true });
    expect(uuids(hidden)).toEqual(sorted([A, L]));
    const withTrash = await contentsOf(U, { uuid: U.uuid, recursive: true, include_trash: true });
    expect(uuids(withTrash)).toEqual(sorted([A, B, C, X, K, L]));
    await move(U, B, A, true);
    expect((await U.client.request('GET', `/svc/v1/collections/${K}`)).status).toBe(200);
    expect(uuids(await contentsOf(U, { uuid: A, recursive: true }))).toEqual(sorted([B, C, K, L]));
    expect(await closureDrift([A, B, C, X])).toEqual({ extra: [], missing: [] });
  });

  it('a subproject moved deeper into its own former sibling keeps its subtree', async () => {
    const D = (await makeProject(U.client, { name: 'D', owner_uuid: A })).uuid;
    await move(U, B, D);
    const cycle = await U.client.request('PUT', `/svc/v1/groups/${D}`, {
      json: { group: { owner_uuid: C } },
    });
    expect([cycle.status, cycle.body.errors]).toEqual([
      422,
      ['owner_uuid would create an ownership cycle'],
    ]);
    const fromD = await contentsOf(U, { uuid: D, recursive: true });
    expect(uuids(fromD)).toEqual(sorted([B, C, K]));
    expect(await closureDrift([A, B, C, D, X])).toEqual({ extra: [], missing: [] });
  });
});

describe('trash of an ancestor', () => {
  it('hides every depth, untrash shows it again, and a subproject is never untrashable alone', async () => {
    const U = await makeUser(d.current);
    const T = (await makeProject(U.client)).uuid;
    let owner = T;
    const chain: string[] = [];
    for (let i = 0; i < 5; i++) {
      owner = (await makeProject(U.client, { owner_uuid: owner })).uuid;
      chain.push(owner);
    }
    const deep = await collection(U, owner);
    expect((await U.client.request('POST', `/svc/v1/groups/${T}/trash`)).status).toBe(200);
    expect((await U.client.request('GET', `/svc/v1/collections/${deep}`)).status).toBe(404);
    const res = await U.client.request('POST', `/svc/v1/groups/${chain[2]}/untrash`);
    expect([res.status, res.body.errors]).toEqual([422, ['Item is not trashed, cannot untrash']]);
    const listed = await U.client.request('GET', '/svc/v1/groups', {
      query: { filters: [['uuid', 'in', chain]] },
    });
    expect(listed.body.items).toEqual([]);
    expect((await U.client.request('POST', `/svc/v1/groups/${T}/untrash`)).status).toBe(200);
    expect((await U.client.request('GET', `/svc/v1/collections/${deep}`)).status).toBe(200);
    const all = await U.client.request('GET', '/svc/v1/groups', {
      query: { filters: [['uuid', 'in', chain]] },
    });
    expect(sorted(all.body.items.map((g: Item) => g.uuid))).toEqual(sorted(chain));
  });

  it('recursive contents with count=none page past the groups as with count=exact', async () => {
    const U = await makeUser(d.current);
    const P = (await makeProject(U.client)).uuid;
    const S = (await makeProject(U.client, { owner_uuid: P })).uuid;
    const hiddenSub = (await makeProject(U.client, { owner_uuid: S })).uuid;
    await collection(U, hiddenSub);
    const ks = [await collection(U, P), await collection(U, S)];
    expect((await U.client.request('POST', `/svc/v1/groups/${hiddenSub}/trash`)).status).toBe(200);
    const exact = await contentsOf(U, { uuid: P, recursive: true, offset: 1, limit: 10 });
    const none = await contentsOf(U, {
      uuid: P,
      recursive: true,
      offset: 1,
      limit: 10,
      count: 'none',
    });
    expect([exact.body.items_available, uuids(exact)]).toEqual([3, sorted(ks)]);
    expect([none.body.items_available, uuids(none)]).toEqual([undefined, sorted(ks)]);
  });
});

describe('the sweep', () => {
  it('deletes a subtree moved into a trashed project, and the tree keeps no row of it', async () => {
    const U = await makeUser(d.current);
    const T = (await makeProject(U.client)).uuid;
    const kept = (await makeProject(U.client)).uuid;
    const B = (await makeProject(U.client, { owner_uuid: kept })).uuid;
    const C = (await makeProject(U.client, { owner_uuid: B })).uuid;
    const K = await collection(U, C);
    const stays = await collection(U, kept);
    await move(U, B, T);
    expect((await U.client.request('POST', `/svc/v1/groups/${T}/trash`)).status).toBe(200);
    await sweepAt(d.current, Date.now() + 15 * DAY_MS);
    for (const path of [`groups/${T}`, `groups/${B}`, `groups/${C}`, `collections/${K}`]) {
      const res = await d.current.root.request('GET', `/svc/v1/${path}`, {
        query: { include_trash: true },
      });
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await U.client.request('GET', `/svc/v1/collections/${stays}`)).status).toBe(200);
    const { rows } = await homeCore(d.current).db.query({
      text: `SELECT 1 FROM group_ancestors WHERE group_uuid = ANY($1::text[]) OR ancestor_uuid = ANY($1::text[])`,
      values: [[T, B, C]],
    });
    expect(rows).toEqual([]);
    expect(await closureDrift([kept])).toEqual({ extra: [], missing: [] });
  });
});
