import type { Db } from '../db/db';

/**
 * Garbage collection must never trash a block that a collection write is about to reference
 * (storage.md §5, §6). A write that adds blocks holds this lock shared for its transaction,
 * while it restores trashed blocks and commits; garbage collection holds it exclusively while
 * it reads every manifest and trashes what none names. On PGlite, one session serializes all
 * transactions already.
 */
export const BLOCK_REFERENCE_LOCK = 0x5_b10c_5ef;
/** At most one garbage collection run per cluster, across server processes. */
export const BLOCK_GC_RUN_LOCK = 0x5_b10c_9c;

export async function holdReferencesShared(tx: Db): Promise<void> {
  if (tx.kind === 'postgres')
    await tx.query({
      text: 'SELECT pg_advisory_xact_lock_shared($1)',
      values: [BLOCK_REFERENCE_LOCK],
    });
}

export async function holdReferencesExclusive(tx: Db): Promise<void> {
  if (tx.kind === 'postgres')
    await tx.query({ text: 'SELECT pg_advisory_xact_lock($1)', values: [BLOCK_REFERENCE_LOCK] });
}
