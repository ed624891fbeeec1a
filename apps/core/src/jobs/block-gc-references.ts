import { forEachBlockHash } from '@svc/blocks';
import type { Db } from '../db/db';

const PAGE = 2000;

export interface ReplicationUpdate {
  uuid: string;
  pdh: string;
  replicas: number;
}

/**
 * Every block named by a collection that is not deleted (trashed ones count until their
 * delete_at), read page by page; and, from the same rows, the collections whose smallest stored
 * replica count differs from their replication_confirmed (storage.md §5, §6).
 */
export async function readReferences(
  db: Db,
  nowIso: string,
  replicasOf: (hash: string) => number,
): Promise<{ referenced: Set<string>; updates: ReplicationUpdate[]; collections: number }> {
  const referenced = new Set<string>();
  const updates: ReplicationUpdate[] = [];
  let after = '';
  let collections = 0;
  for (;;) {
    const { rows } = await db.query<{
      uuid: string;
      manifest_text: string;
      portable_data_hash: string;
      replication_confirmed: number | null;
    }>({
      text: `SELECT uuid, manifest_text, portable_data_hash, replication_confirmed FROM collections
             WHERE uuid > $1 AND (delete_at IS NULL OR delete_at > $2)
             ORDER BY uuid LIMIT ${PAGE}`,
      values: [after, nowIso],
      name: 'block_gc_references',
    });
    for (const row of rows) {
      let min = Infinity;
      forEachBlockHash(row.manifest_text, (hash) => {
        referenced.add(hash);
        min = Math.min(min, replicasOf(hash));
      });
      if (min !== Infinity && min !== row.replication_confirmed)
        updates.push({ uuid: row.uuid, pdh: row.portable_data_hash, replicas: min });
    }
    collections += rows.length;
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.uuid;
  }
  return { referenced, updates, collections };
}

/** Sets replication_confirmed(_at), unless the manifest changed since it was read. */
export async function applyReplication(
  db: Db,
  updates: readonly ReplicationUpdate[],
  nowIso: string,
): Promise<void> {
  for (let i = 0; i < updates.length; i += PAGE) {
    const batch = updates.slice(i, i + PAGE);
    await db.query({
      text: `UPDATE collections c SET replication_confirmed = u.replicas, replication_confirmed_at = $4
             FROM unnest($1::text[], $2::text[], $3::int[]) AS u(uuid, pdh, replicas)
             WHERE c.uuid = u.uuid AND c.portable_data_hash = u.pdh`,
      values: [
        batch.map((u) => u.uuid),
        batch.map((u) => u.pdh),
        batch.map((u) => u.replicas),
        nowIso,
      ],
      name: 'block_gc_replication',
    });
  }
}
