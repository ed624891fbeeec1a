import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Db, QueryResult, Statement } from './db';
import { lockDirectory } from './dir-lock';
import { OID, parseInt8, parseTimestamptz } from './value-parsers';

type Session = PGlite | Transaction;

function wrap(session: Session, root: PGlite | null, release = () => {}): Db {
  const db: Db = {
    kind: 'pglite',
    async query<T>(s: Statement): Promise<QueryResult<T>> {
      const result = await session.query<T>(s.text, s.values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(script: string) {
      await session.exec(script);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      // PGlite has one session: its transaction() holds the session's lock until done.
      if (root === null) return fn(db);
      return root.transaction((tx) => fn(wrap(tx, null)));
    },
    async withSessionLock(_key, fn) {
      // One process owns an embedded database, with one session, on which advisory locks are
      // re-entrant: the job runner's own one-run-per-job rule is the whole guarantee here.
      return { ran: true, value: await fn() };
    },
    forCaller() {
      return db; // one session, taken in turn: no pool to share
    },
    async close() {
      if (!root) return;
      try {
        if (!root.closed) await root.close();
      } finally {
        release();
      }
    },
  };
  return db;
}

/**
 * Embedded PostgreSQL. `location` is a directory (kept across restarts), `memory`, or a
 * prepared data-directory tarball to start from (tests).
 */
export async function openPglite(
  location: string,
  loadDataDir?: Blob,
): Promise<{ db: Db; pglite: PGlite }> {
  const { PGlite: PGliteClass } = await import('@electric-sql/pglite');
  // Extensions the migrations create; PGlite ships them separately (stack notes).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const dataDir = location === 'memory' ? 'memory://' : resolve(location);
  if (location !== 'memory') mkdirSync(dirname(dataDir), { recursive: true });
  const release = location === 'memory' ? () => {} : lockDirectory(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGliteClass.create(dataDir, {
      ...(loadDataDir ? { loadDataDir } : {}),
      extensions: { pg_trgm },
      parsers: {
        [OID.timestamptz]: parseTimestamptz,
        [OID.timestamp]: parseTimestamptz,
        [OID.int8]: parseInt8,
      },
    });
    await pglite.exec(`SET TimeZone = 'UTC'`);
  } catch (e) {
    release();
    throw e;
  }
  return { db: wrap(pglite, pglite, release), pglite };
}
