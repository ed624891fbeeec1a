/**
 * Database faults under write load, through a TCP proxy between the core and PostgreSQL:
 * backends terminated (pg_terminate_backend) and connections cut while writes run, a database
 * that accepts and never answers, and one that refuses connections. The process survives,
 * clients get the contract's error shape with 503 during the outage (never a 500, and a token
 * that cannot be checked is never 401), service resumes by itself, and no acknowledged write
 * is lost. Every log line of the run is then scanned for the secrets the requests carried.
 */
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { DEFAULT_PG_URL, ENV } from '../harness/database-target';
import { DbProxy } from '../harness/db-proxy';
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const ADMIN_URL = process.env[ENV.adminUrl] ?? DEFAULT_PG_URL;
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;
const WRITERS = 6;
const MANAGEMENT_TOKEN = 'management-token-of-the-faults-test';

let proxy: DbProxy;
beforeAll(async () => {
  proxy = await DbProxy.start(ADMIN_URL);
});
afterAll(() => proxy.close());

const lines: string[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  }),
);

const d = useDeployment({
  logger,
  configure: (_id, c) => {
    c['Database'] = {
      ...c['Database'],
      URL: proxy.route(c['Database'].URL),
      ConnectTimeout: 1,
      StatementTimeout: 2,
    };
    c['API'] = { MaxListDuration: 2 }; // reads are bounded by it (the list bound), writes by StatementTimeout
    c['ManagementToken'] = MANAGEMENT_TOKEN;
  },
});
const root = () => d.current.root;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const databaseName = () =>
  new URL(d.current.config.Clusters['home1']!.Database.URL).pathname.slice(1);

async function asAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const terminateBackends = () =>
  asAdmin(async (admin) => {
    const res = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [databaseName()],
    );
    return res.rowCount ?? 0;
  });

/** ALLOW_CONNECTIONS on the cluster's database; refusing also ends the sessions it has. */
async function allowConnections(allow: boolean): Promise<void> {
  await asAdmin((admin) =>
    admin.query(`ALTER DATABASE ${databaseName()} WITH ALLOW_CONNECTIONS ${allow}`),
  );
  if (!allow) await terminateBackends();
}

const ping = () =>
  fetch(`${d.current.url}/_health/ping`, {
    headers: { Authorization: `Bearer ${MANAGEMENT_TOKEN}` },
  }).then((r) => r.status);

function expectUnavailable(res: { status: number; body: any }) {
  expect([res.status, res.body.errors]).toEqual([
    503,
    ['Service unavailable: the cluster database cannot be reached'],
  ]);
  expect(res.body.error_token).toMatch(ERROR_TOKEN);
}

/** Writers creating collections until told to stop; what was acknowledged, and every status. */
function writeLoad(u: TestUser) {
  const state = {
    done: false,
    acked: [] as string[],
    statuses: [] as number[],
    bodies: [] as any[],
    retryAfters: new Set<unknown>(),
  };
  const runs = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; !state.done; i++) {
      const res = await u.client.request('POST', '/svc/v1/collections', {
        json: { collection: { name: `w${w}-${i}`, owner_uuid: u.uuid } },
      });
      state.statuses.push(res.status);
      if (res.status === 200) state.acked.push(res.body.uuid);
      else {
        state.bodies.push(res.body);
        state.retryAfters.add(res.headers['retry-after']);
      }
    }
  });
  return {
    state,
    async stop() {
      state.done = true;
      await Promise.all(runs);
      return state;
    },
  };
}

async function storedUuids(u: TestUser): Promise<Set<string>> {
  const found = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const res = await u.client.request('GET', '/svc/v1/collections', {
      query: {
        filters: [['owner_uuid', '=', u.uuid]],
        select: ['uuid'],
        limit: 1000,
        offset,
        order: 'uuid',
      },
    });
    expect(res.status).toBe(200);
    for (const item of res.body.items) found.add(item.uuid);
    if (res.body.items.length < 1000) return found;
  }
}

/** Asks until the cluster answers again (it must, by itself). */
async function recovered(): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const res = await root().request('GET', '/svc/v1/collections', { query: { limit: 1 } });
    if (res.status === 200) return;
    expectUnavailable(res);
    await sleep(250);
  }
  throw new Error('the cluster did not recover');
}

const secrets: string[] = [];

describe('database faults', () => {
  it('backends terminated and connections cut under write load: 200 or 503 only, no acknowledged write lost', async () => {
    const u = await makeUser(d.current);
    secrets.push(u.token.split('/')[2]!);
    const load = writeLoad(u);
    await sleep(300);
    for (let round = 0; round < 4; round++) {
      await terminateBackends();
      await sleep(200);
      proxy.cut();
      await sleep(200);
    }
    await sleep(300);
    const { acked, statuses, bodies } = await load.stop();
    expect(new Set(statuses.filter((s) => s !== 200 && s !== 503))).toEqual(new Set());
    for (const body of bodies) expectUnavailable({ status: 503, body });
    expect(acked.length).toBeGreaterThan(0);
    await recovered();
    const stored = await storedUuids(u);
    expect(acked.filter((uuid) => !stored.has(uuid))).toEqual([]);
    // Still writing after the faults.
    const after = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: {} },
    });
    expect(after.status).toBe(200);
  }, 120_000);

  it('a stalled database: 503 for reads, writes and tokens not yet checked, then recovery', async () => {
    const writer = await makeUser(d.current);
    const unchecked = await makeUser(d.current); // its token has never reached the gateway
    secrets.push(writer.token.split('/')[2]!, unchecked.token.split('/')[2]!);
    await writer.client.request('GET', '/svc/v1/users/current'); // cached
    const load = writeLoad(writer);
    await sleep(300);
    proxy.setMode('stall');
    expectUnavailable(await root().request('GET', '/svc/v1/collections'));
    expectUnavailable(await unchecked.client.request('GET', '/svc/v1/users/current'));
    // Tokens in every position, while the cluster fails: none of them may reach a log line.
    expectUnavailable(
      await d.current
        .client(null)
        .request('GET', `/svc/v1/collections?api_token=${encodeURIComponent(unchecked.token)}`),
    );
    expectUnavailable(
      await d.current.client(null).request('POST', '/svc/v1/collections', {
        json: { api_token: unchecked.token, collection: { name: 'x' } },
      }),
    );
    expectUnavailable(
      await d.current.client(null).request('POST', '/svc/v1/collections', {
        form: { api_token: unchecked.token, collection: '{}' },
      }),
    );
    const { acked, statuses } = await load.stop();
    expect(new Set(statuses.filter((s) => s !== 200 && s !== 503))).toEqual(new Set());
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    proxy.setMode('pass');
    await recovered();
    expect((await unchecked.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const stored = await storedUuids(writer);
    expect(acked.filter((uuid) => !stored.has(uuid))).toEqual([]);
  }, 120_000);

  it('a database that refuses connections: 503, then recovery', async () => {
    proxy.setMode('down');
    proxy.cut();
    expectUnavailable(await root().request('GET', '/svc/v1/groups'));
    expectUnavailable(
      await root().request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project' } },
      }),
    );
    proxy.setMode('pass');
    await recovered();
    const u = await makeUser(d.current);
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
  }, 60_000);

  it('a database that disallows connections: 503 + Retry-After, ping 503, one log line each way', async () => {
    const writer = await makeUser(d.current);
    const unchecked = await makeUser(d.current); // its token has never reached the gateway
    secrets.push(writer.token.split('/')[2]!, unchecked.token.split('/')[2]!);
    await recovered();
    const from = lines.length;
    await allowConnections(false);
    const load = writeLoad(writer);
    try {
      await sleep(1_000);
      expectUnavailable(await unchecked.client.request('GET', '/svc/v1/users/current'));
      expect(await ping()).toBe(503);
    } finally {
      await allowConnections(true);
    }
    const { statuses, bodies, retryAfters } = await load.stop();
    await recovered();
    expect(await ping()).toBe(200);
    expect((await unchecked.client.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const refused = statuses.filter((s) => s === 503).length;
    expect([refused > 0, new Set(statuses.filter((s) => s !== 503 && s !== 200))]).toEqual([
      true,
      new Set(),
    ]);
    for (const body of bodies) expectUnavailable({ status: 503, body });
    expect(retryAfters).toEqual(new Set(['1']));
    const during = lines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
    const outage = during.filter((l) => l['cluster'] === 'home1' && l['msg'] !== 'request');
    expect(outage.map((l) => l['msg'])).toEqual([
      'database unreachable: requests are refused with 503 until it answers again',
      'database reachable again',
    ]);
    expect(outage[0]).toMatchObject({ code: '55000' });
    expect(outage[1]!['refused']).toBeGreaterThanOrEqual(refused);
    expect(during.filter((l) => l['level'] === 50)).toEqual([]); // no error line per request
  }, 60_000);

  it('logs no secret and no stack trace for an expected 503', () => {
    secrets.push(d.current.home.rootToken);
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    }
    const unavailable = lines.filter((l) => l.includes('"status":503'));
    expect(unavailable.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('"stack"'))).toEqual([]);
  });
});
