import type { Db } from '../db/db';
import { BLOCK_GC_RUN_LOCK } from '../storage/reference-lock';

/** Clusters whose garbage collection runs in this process (PGlite has one process anyway). */
const runningHere = new Set<string>();

/**
 * Runs `fn` unless a run is already going on for this cluster, in this process or (on
 * PostgreSQL) any other: the lock is a transaction-level advisory lock held by an otherwise idle
 * transaction for the length of the run, so a crashed process releases it with its connection.
 * Answers false when it did not run.
 */
export async function withGcRunLock(
  db: Db,
  clusterId: string,
  fn: () => Promise<void>,
): Promise<boolean> {
  if (runningHere.has(clusterId)) return false;
  runningHere.add(clusterId);
  try {
    if (db.kind !== 'postgres') {
      await fn();
      return true;
    }
    return await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ got: boolean }>({
        text: 'SELECT pg_try_advisory_xact_lock($1) AS got',
        values: [BLOCK_GC_RUN_LOCK],
      });
      if (!rows[0]?.got) return false;
      await fn();
      return true;
    });
  } finally {
    runningHere.delete(clusterId);
  }
}
