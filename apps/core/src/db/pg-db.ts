import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, QueryResult, Statement } from './db';
import { FairShare } from './fair-share';
import { isDatabaseUnavailable } from './pg-error';
import { OID, parseInt8, parseTimestamptz } from './value-parsers';

const parserOf = (oid: number, format?: string) => {
  if (oid === OID.timestamptz || oid === OID.timestamp) return parseTimestamptz;
  if (oid === OID.int8) return parseInt8;
  return pg.types.getTypeParser(oid, format as 'text');
};

/** Parsers by oid and format, looked up once: node-postgres asks for every column of every result. */
const parsers = new Map<string, ReturnType<typeof parserOf>>();
const types = {
  getTypeParser(oid: number, format?: string) {
    const key = format === 'binary' ? `b${oid}` : `${oid}`;
    let parser = parsers.get(key);
    if (parser === undefined) {
      parser = parserOf(oid, format);
      parsers.set(key, parser);
    }
    return parser;
  },
};

type Queryable = pg.Pool | pg.PoolClient;

/**
 * Statements are prepared once per session under a name derived from their text: planning
 * (the object_owners view is a 10-way UNION) costs more than running. Texts come from code,
 * not input, but list filters combine freely, so naming stops after a fixed number of texts.
 */
const MAX_PREPARED = 2000;
const preparedNames = new Map<string, string>();

function nameFor(s: Statement): string | undefined {
  if (s.custom) return undefined;
  if (s.name) return s.name;
  let name = preparedNames.get(s.text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `s${createHash('sha1').update(s.text).digest('hex').slice(0, 20)}`;
    preparedNames.set(s.text, name);
  }
  return name;
}

/**
 * Writes that lock rows in different orders (a request, then its container; a container, then
 * its requests) may deadlock; PostgreSQL then aborts one of them, which runs again from the
 * start. Serialization failures are retried the same way.
 */
const MAX_ATTEMPTS = 4;
const isRetryable = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
};

/**
 * A session taken from the pool for a while (a transaction, a lock). The pool only watches
 * idle sessions: one that breaks while checked out (backend terminated, socket cut) emits
 * 'error' with no listener, which would end the process. Here that error is kept, and the
 * session is destroyed instead of going back to the pool.
 */
async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: unknown = null;
  const onError = (err: unknown) => (broken ??= err);
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (err) {
    const cause = err instanceof BeforeCommit ? err.cause : err;
    if (isDatabaseUnavailable(cause)) broken ??= cause;
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken ? (broken as Error) : undefined);
  }
}

/** Where a transaction failed: before COMMIT was sent nothing can have been written. */
class BeforeCommit extends Error {
  constructor(override readonly cause: unknown) {
    super('transaction failed before commit');
  }
}

/**
 * Writes run in a transaction whose statements may take `Database.StatementTimeout`: the
 * session default is the shorter bound of reads (API.MaxListDuration). Both are set in the
 * BEGIN round trip, so a transaction costs no extra statement.
 */
async function runTransaction<T>(
  pool: pg.Pool,
  begin: string,
  fn: (tx: Db) => Promise<T>,
): Promise<T> {
  return withClient(pool, async (client) => {
    let out: T;
    try {
      await client.query(begin);
      out = await fn(wrap(client, { kind: 'tx', pool, begin }));
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw new BeforeCommit(err);
    }
    await client.query('COMMIT');
    return out;
  });
}

interface Scope {
  kind: 'root' | 'tx';
  pool: pg.Pool;
  /** The statement that opens a transaction (with its statement timeout). */
  begin: string;
  /** The caller's share of the pool (root only): every session it takes goes through it. */
  share?: { fair: FairShare; caller: string };
}

function wrap(q: Queryable, scope: Scope, fair?: FairShare): Db {
  const { kind, pool, begin, share } = scope;
  const gated = <T>(fn: () => Promise<T>): Promise<T> =>
    share ? share.fair.run(share.caller, fn) : fn();
  const db: Db = {
    kind: 'postgres',
    async query<T>(s: Statement): Promise<QueryResult<T>> {
      const result = await gated(() =>
        q.query({ text: s.text, values: s.values, name: nameFor(s), types }),
      );
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
    async exec(script: string) {
      await q.query(script);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (kind === 'tx') return fn(db);
      for (let attempt = 1; ; attempt++) {
        try {
          return await gated(() => runTransaction(pool, begin, fn));
        } catch (caught) {
          // A lost connection before COMMIT wrote nothing: one more try on a new session is
          // safe. A failure during COMMIT is left to the client (503), who may ask again.
          const before = caught instanceof BeforeCommit;
          const err = before ? caught.cause : caught;
          const again = isRetryable(err) || (before && attempt === 1 && isDatabaseUnavailable(err));
          if (attempt >= MAX_ATTEMPTS || !again) throw err;
        }
      }
    },
    async withSessionLock(key, fn) {
      // A session of its own, idle while fn runs: fn's queries use the pool as usual.
      return withClient(pool, async (client) => {
        const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
          key.toString(),
        ]);
        if (!got.rows[0]?.ok) return { ran: false as const };
        try {
          return { ran: true as const, value: await fn() };
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key.toString()]);
        }
      });
    },
    forCaller(caller: string): Db {
      if (kind !== 'root' || !fair) return db;
      return wrap(q, { ...scope, share: { fair, caller } });
    },
    async close() {
      // Once: a core closing after its database was already closed (a failed start) is fine.
      if (kind === 'root' && !share && !pool.ended) await pool.end();
    },
  };
  return db;
}

/**
 * A pool of sessions on PostgreSQL, every session in UTC, tuned for short API queries:
 * - no JIT: the permission filters' subplans get huge cost estimates, so JIT compiled queries
 *   for hundreds of ms that execute in a few;
 * - no parallel workers: starting them cost ~4 ms on a 3 ms permission-checked get, and
 *   concurrent requests already use the cores (both measured by the permissions benchmark).
 */
export const SESSION_OPTIONS = '-c TimeZone=UTC -c jit=off -c max_parallel_workers_per_gather=0';

export interface PostgresOptions {
  /** Sessions in the pool. */
  max?: number;
  /** How long to open a session before failing: 503. */
  connectTimeoutMs?: number;
  /** How long to wait for a free session (API.DatabaseWaitTimeout): 503. */
  waitTimeoutMs?: number;
  /**
   * How long one statement of a transaction (a write) may take. PostgreSQL cancels it
   * (statement_timeout); a database that accepts and never answers is caught by the driver's
   * read timeout a little later.
   */
  statementTimeoutMs?: number;
  /**
   * How long a statement outside a transaction (a get, a list, its count) may take
   * (API.MaxListDuration): the session default, so reads cost no extra statement.
   */
  readTimeoutMs?: number;
  /** How long a statement waits for a lock (API.LockTimeout, PostgreSQL lock_timeout). */
  lockTimeoutMs?: number;
}

/** Defaults of Database.ConnectTimeout, StatementTimeout, MaxConnections and the API's bounds. */
export const POSTGRES_DEFAULTS = {
  max: 10,
  connectTimeoutMs: 5_000,
  waitTimeoutMs: 5_000,
  statementTimeoutMs: 30_000,
  readTimeoutMs: 20_000,
  lockTimeoutMs: 10_000,
};

/** The sessions one caller may hold: half the pool, and at least one (docs/adr/0017). */
export const sharePerCaller = (max: number): number => Math.max(1, Math.floor(max / 2));

export function openPostgres(url: string, opts: PostgresOptions = {}): { db: Db; pool: pg.Pool } {
  const o = { ...POSTGRES_DEFAULTS, ...opts };
  // node-postgres has one timer for opening a session and waiting for a free one.
  const waitMs = Math.min(o.connectTimeoutMs, o.waitTimeoutMs);
  const pool = new pg.Pool({
    connectionString: url,
    max: o.max,
    options: `${SESSION_OPTIONS} -c statement_timeout=${o.readTimeoutMs} -c lock_timeout=${o.lockTimeoutMs}`,
    connectionTimeoutMillis: waitMs,
    query_timeout: Math.max(o.statementTimeoutMs, o.readTimeoutMs) + 1_000,
    keepAlive: true,
  });
  // An idle session that breaks is dropped by the pool and replaced on the next checkout; the
  // error itself surfaces, if at all, on the next query.
  pool.on('error', () => undefined);
  // And every session keeps a listener of its own for its whole life: between checkout and
  // release the pool does not listen, and whoever holds the session (this module, the Prisma
  // adapter) learns of the failure from its next query, which fails too.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const begin = `BEGIN; SET LOCAL statement_timeout = ${o.statementTimeoutMs}`;
  const fair = new FairShare(sharePerCaller(o.max), waitMs);
  return { db: wrap(pool, { kind: 'root', pool, begin }, fair), pool };
}
