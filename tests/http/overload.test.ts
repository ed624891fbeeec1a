/**
 * Overload and slow statements (docs/api/requests-and-errors.md §7), through the gateway: too many filter
 * conditions (422), a list past API.MaxListDuration (422), a write waiting on a lock past
 * API.LockTimeout (503 + Retry-After), and a token over API.MaxConcurrentRequestsPerToken (429 +
 * Retry-After) while another user is served at once. Locks are held by a session of the test.
 */
import pg from 'pg';
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const LIST_SECONDS = 2;
const LOCK_SECONDS = 3;
const d = useDeployment({
  configure: (_id, c) => {
    c['API'] = {
      MaxFilterConditions: 5,
      MaxListDuration: LIST_SECONDS,
      LockTimeout: LOCK_SECONDS,
      MaxConcurrentRequestsPerToken: 2,
    };
  },
});

/** A session of its own on the cluster's database that holds a lock until released (or 10 s). */
async function holdLock(sql: string, values: unknown[] = []) {
  const session = new pg.Client({
    connectionString: d.current.config.Clusters['home1']!.Database.URL,
  });
  await session.connect();
  await session.query('BEGIN');
  await session.query(sql, values);
  let released: Promise<void> | null = null;
  const release = () =>
    (released ??= session
      .query('ROLLBACK')
      .then(() => session.end())
      .then(() => undefined));
  // Before the fix, requests waited for the lock: let them finish so the test fails, not hangs.
  setTimeout(() => void release(), 10_000).unref();
  return { session, release };
}

/** Waits until `n` sessions of the cluster wait on a lock (requests in progress in the core). */
async function lockWaiters(session: pg.Client, n: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    // A transaction sees one snapshot of the statistics unless told to take a new one.
    await session.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await session.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${n} requests wait on the lock`);
}

const errorOf = (res: { status: number; body: any; headers: Record<string, unknown> }) => ({
  status: res.status,
  errors: res.body.errors,
  retryAfter: res.headers['retry-after'],
});

let u: TestUser;
let other: TestUser;
beforeAll(async () => {
  [u, other] = [await makeUser(d.current), await makeUser(d.current)];
});

const collection = async (by: TestUser) => {
  const res = await by.client.request('POST', '/svc/v1/collections', { json: { collection: {} } });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
};

it('refuses more than API.MaxFilterConditions filter conditions with 422', async () => {
  const cond = ['any', 'ilike', '%x%'];
  const five = await u.client.request('GET', '/svc/v1/collections', {
    query: { filters: Array(5).fill(cond) },
  });
  expect(five.status).toBe(200);
  const six = await u.client.request('POST', '/svc/v1/collections', {
    form: { _method: 'GET', filters: JSON.stringify(Array(6).fill(cond)) },
  });
  expect([six.status, six.body.errors]).toEqual([422, ['too many filter conditions (at most 5)']]);
});

it('bounds a list by API.MaxListDuration (422) and a lock wait by API.LockTimeout (503)', async () => {
  const mine = await collection(u);
  const lock = await holdLock('LOCK TABLE collections IN ACCESS EXCLUSIVE MODE');
  try {
    const [list, write] = await Promise.all([
      u.client.request('GET', '/svc/v1/collections', { query: { limit: 1 } }),
      other.client.request('POST', '/svc/v1/collections', { json: { collection: {} } }),
    ]);
    expect(errorOf(list)).toEqual({
      status: 422,
      errors: [`query took longer than ${LIST_SECONDS} s: narrow the filters or use count=none`],
      retryAfter: undefined,
    });
    expect(errorOf(write)).toEqual({
      status: 503,
      errors: ['Service unavailable: the object is busy, try again'],
      retryAfter: '1',
    });
  } finally {
    await lock.release();
  }
  expect((await u.client.request('GET', `/svc/v1/collections/${mine}`)).status).toBe(200);
}, 30_000);

it('answers 429 past API.MaxConcurrentRequestsPerToken while other users are served', async () => {
  const busy = [await collection(u), await collection(u)];
  const free = await collection(other);
  const lock = await holdLock('SELECT 1 FROM collections WHERE uuid = ANY($1) FOR UPDATE', [busy]);
  try {
    const update = (uuid: string) =>
      u.client.request('PATCH', `/svc/v1/collections/${uuid}`, {
        json: { collection: { description: 'waits' } },
      });
    const held = [update(busy[0]!), update(busy[1]!)];
    await lockWaiters(lock.session, 2);
    const third = await u.client.request('GET', `/svc/v1/collections/${busy}`);
    expect(errorOf(third)).toEqual({
      status: 429,
      errors: ['too many concurrent requests for this token'],
      retryAfter: '1',
    });
    expect((await other.client.request('GET', `/svc/v1/collections/${free}`)).status).toBe(200);
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([503, 503]);
  } finally {
    await lock.release();
  }
  expect((await u.client.request('GET', `/svc/v1/collections/${busy[0]}`)).status).toBe(200);
}, 30_000);
