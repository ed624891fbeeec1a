import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, QueryResult, Statement } from './db';
import { OID, parseInt8, parseTimestamptz } from './value-parsers';

const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === OID.timestamptz || oid === OID.timestamp) return parseTimestamptz;
    if (oid === OID.int8) return parseInt8;
    return pg.types.getTypeParser(oid, format as 'text');
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

async function runTransaction<T>(pool: pg.Pool, fn: (tx: Db) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const out = await fn(wrap(client, 'tx', pool));
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

function wrap(q: Queryable, kind: 'root' | 'tx', pool: pg.Pool): Db {
  const db: Db = {
    kind: 'postgres',
    async query<T>(s: Statement): Promise<QueryResult<T>> {
      const result = await q.query({ text: s.text, values: s.values, name: nameFor(s), types });
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
    async exec(script: string) {
      await q.query(script);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (kind === 'tx') return fn(db);
      for (let attempt = 1; ; attempt++) {
        try {
          return await runTransaction(pool, fn);
        } catch (err) {
          if (attempt >= MAX_ATTEMPTS || !isRetryable(err)) throw err;
        }
      }
    },
    async withSessionLock(key, fn) {
      // A session of its own, idle while fn runs: fn's queries use the pool as usual.
      const client = await pool.connect();
      try {
        const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
          key.toString(),
        ]);
        if (!got.rows[0]?.ok) return { ran: false };
        try {
          return { ran: true, value: await fn() };
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key.toString()]);
        }
      } finally {
        client.release();
      }
    },
    async close() {
      // Once: a core closing after its database was already closed (a failed start) is fine.
      if (kind === 'root' && !pool.ended) await pool.end();
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

export function openPostgres(url: string, max = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max, options: SESSION_OPTIONS });
  pool.on('error', () => undefined); // idle-session errors surface on the next query instead
  return { db: wrap(pool, 'root', pool), pool };
}
