/**
 * Paging through a large mixed project (groups.md §3 step 7): walking the pages with any limit
 * returns every item exactly once, types in their fixed order, and items_available is the total
 * (from the per-owner counters or counted, alike). The project is filled with set-based SQL.
 */
import pg from 'pg';
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();

type Item = { uuid: string; kind: string; modified_at: string; name: string };
const KINDS = ['svc#group', 'svc#containerRequest', 'svc#workflow', 'svc#collection'];
const COUNTS = { groups: 300, container_requests: 500, workflows: 800, collections: 1600 };
const TRASHED = 40; // collections trashed themselves, left out
const TOTAL =
  COUNTS.groups + COUNTS.container_requests + COUNTS.workflows + COUNTS.collections - TRASHED;

let U: TestUser;
let P: string;

async function seed(url: string, owner: string, user: string) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const id = (infix: string, seed: string) => `'home1-${infix}-' || substr(md5(${seed}), 1, 15)`;
  // Few distinct times: ties on modified_at everywhere, broken by uuid.
  const at = `now() - make_interval(secs => i % 13)`;
  try {
    await db.query(
      `INSERT INTO groups (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, group_class)
       SELECT ${id('j7d0g', `'g' || i`)}, $1, ${at}, ${at}, $2, 'g' || i, 'project'
         FROM generate_series(1, ${COUNTS.groups}) i`,
      [owner, user],
    );
    await db.query(
      `INSERT INTO container_requests (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, container_count_max)
       SELECT ${id('xvhdp', `'r' || i`)}, $1, ${at}, ${at}, $2, 'r' || i, 3
         FROM generate_series(1, ${COUNTS.container_requests}) i`,
      [owner, user],
    );
    await db.query(
      `INSERT INTO workflows (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name)
       SELECT ${id('7fd4e', `'w' || i`)}, $1, ${at}, ${at}, $2, 'w' || i
         FROM generate_series(1, ${COUNTS.workflows}) i`,
      [owner, user],
    );
    await db.query(
      `INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, portable_data_hash, trash_at)
       SELECT ${id('4zz18', `'c' || i`)}, $1, ${at}, ${at}, $2, 'c' || (i % 50),
              'd41d8cd98f00b204e9800998ecf8427e+0',
              CASE WHEN i <= ${TRASHED} THEN now() - interval '1 hour'
                   WHEN i <= ${TRASHED * 2} THEN now() + interval '1 day' END
         FROM generate_series(1, ${COUNTS.collections}) i`,
      [owner, user],
    );
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  U = await makeUser(d.current);
  const res = await U.client.request('POST', '/svc/v1/groups', {
    json: { group: { name: 'big', group_class: 'project' } },
  });
  P = res.body.uuid;
  const url = String(d.current.config.Clusters['home1']!.Database.URL);
  await seed(url, P, U.uuid);
}, 60_000);

/** Walks every page with the limits given in turn; checks each page's items_available. */
async function walk(limits: number[], query: Record<string, unknown> = {}): Promise<Item[]> {
  const seen: Item[] = [];
  for (let page = 0; ; page++) {
    const limit = limits[page % limits.length]!;
    const res = await U.client.request('GET', '/svc/v1/groups/contents', {
      query: { uuid: P, limit, offset: seen.length, ...query },
    });
    expect([res.status, res.body.errors]).toEqual([200, undefined]);
    if (query['count'] !== 'none') expect(res.body.items_available).toBe(TOTAL);
    seen.push(...res.body.items);
    if (res.body.items.length < limit) break;
    expect(res.body.items).toHaveLength(limit);
  }
  return seen;
}

function checkWalk(items: Item[]) {
  expect(items).toHaveLength(TOTAL);
  expect(new Set(items.map((i) => i.uuid)).size).toBe(TOTAL);
  const kinds = items.map((i) => KINDS.indexOf(i.kind));
  expect(kinds.every((k, i) => k >= 0 && (i === 0 || k >= kinds[i - 1]!))).toBe(true);
  const perKind = KINDS.map((k) => items.filter((i) => i.kind === k).length);
  expect(perKind).toEqual([
    COUNTS.groups,
    COUNTS.container_requests,
    COUNTS.workflows,
    COUNTS.collections - TRASHED,
  ]);
}

/** Within each type: modified_at desc, then uuid asc. */
function defaultOrdered(items: Item[]): boolean {
  return items.every((item, i) => {
    const prev = items[i - 1];
    if (!prev || prev.kind !== item.kind) return true;
    const a = Date.parse(prev.modified_at);
    const b = Date.parse(item.modified_at);
    return a > b || (a === b && prev.uuid < item.uuid);
  });
}

describe(`walking a project of ${TOTAL} mixed items`, () => {
  it.each([[[100]], [[37]], [[1000]], [[7, 250, 61, 999, 3]]])(
    'returns each item exactly once with limits %j',
    async (limits) => {
      const items = await walk(limits);
      checkWalk(items);
      expect(defaultOrdered(items)).toBe(true);
    },
    120_000,
  );

  it('does the same without counting (count=none) with limits that end pages inside types', async () => {
    const items = await walk([299, 2, 600, 1], { count: 'none' });
    checkWalk(items);
    expect(defaultOrdered(items)).toBe(true);
  }, 120_000);

  it('does the same with a type-qualified order and count=none', async () => {
    const items = await walk([173], { order: ['collections.name desc'], count: 'none' });
    checkWalk(items);
    const names = items.filter((i) => i.kind === 'svc#collection').map((i) => i.name);
    expect(names).toEqual([...names].sort().reverse());
  }, 120_000);

  it('counts alike from the counters and by counting rows', async () => {
    const counted = await U.client.request('GET', '/svc/v1/groups/contents', {
      query: { uuid: P, limit: 0, filters: [['created_at', '>', '2000-01-01T00:00:00Z']] },
    });
    expect(counted.body.items_available).toBe(TOTAL);
    const withTrash = await U.client.request('GET', '/svc/v1/groups/contents', {
      query: { uuid: P, limit: 0, include_trash: true },
    });
    expect(withTrash.body.items_available).toBe(TOTAL + TRASHED);
  });

  it('keeps the counts right through moves, deletes and trash', async () => {
    const other = await U.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'other', group_class: 'project' } },
    });
    const Q = other.body.uuid as string;
    const available = async (uuid: string) =>
      (
        await U.client.request('GET', '/svc/v1/groups/contents', {
          query: { uuid, limit: 0 },
        })
      ).body.items_available as number;
    const first = await U.client.request('GET', '/svc/v1/groups/contents', {
      query: { uuid: P, limit: 1, filters: [['uuid', 'is_a', 'svc#collection']] },
    });
    const c = first.body.items[0].uuid as string;
    const move = await U.client.request('PUT', `/svc/v1/collections/${c}`, {
      json: { collection: { owner_uuid: Q } },
    });
    expect(move.status).toBe(200);
    expect([await available(P), await available(Q)]).toEqual([TOTAL - 1, 1]);
    expect((await U.client.request('DELETE', `/svc/v1/collections/${c}`)).status).toBe(200);
    expect(await available(Q)).toBe(0);
    const g = await U.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'moving', group_class: 'project', owner_uuid: Q } },
    });
    expect(await available(Q)).toBe(1);
    await U.client.request('PUT', `/svc/v1/groups/${g.body.uuid}`, {
      json: { group: { owner_uuid: P } },
    });
    expect([await available(P), await available(Q)]).toEqual([TOTAL, 0]);
  });
});
