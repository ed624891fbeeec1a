/** Direct database work on the permission table, beside the API: comparison and clean-up. */
import type { Db } from '../../../apps/core/src/db/db';
import { recomputeAllPermissions } from '../../../apps/core/src/permissions/materialize';

const ROLLBACK = new Error('rollback');

/**
 * The rows of materialized_permissions (those of `scope`'s users and targets, or all) that
 * differ from a full recomputation made in a transaction that is rolled back.
 */
export async function materializedDiff(
  db: Db,
  clusterId: string,
  scope: string[] | null,
): Promise<string[]> {
  const q = {
    text: `SELECT user_uuid, target_uuid, perm_level, traverse_owned FROM materialized_permissions
            WHERE $1::text[] IS NULL OR user_uuid = ANY($1::text[]) OR target_uuid = ANY($1::text[])
            ORDER BY 1, 2`,
    values: [scope],
  };
  const key = (r: Record<string, unknown>) =>
    `${String(r['user_uuid'])} ${String(r['target_uuid'])} ${String(r['perm_level'])} ${String(r['traverse_owned'])}`;
  const incremental = (await db.query(q)).rows.map(key);
  let full: string[] = [];
  try {
    await db.transaction(async (tx) => {
      await recomputeAllPermissions(tx, clusterId);
      full = (await tx.query(q)).rows.map(key);
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  const a = new Set(incremental);
  const b = new Set(full);
  return [
    ...incremental.filter((r) => !b.has(r)).map((r) => `\n    only in the table:         ${r}`),
    ...full.filter((r) => !a.has(r)).map((r) => `\n    only in the recomputation: ${r}`),
  ];
}

/**
 * Removes a finished graph from the database directly, keeping the materialized table equal
 * to a full recomputation (no other graph's user reaches this graph's objects but through the
 * all-users group, whose links into the graph go too). Keeps later full recomputations small.
 */
export async function removeGraph(db: Db, uuids: string[]): Promise<void> {
  if (uuids.length === 0) return;
  await db.transaction(async (tx) => {
    for (const text of [
      'DELETE FROM materialized_permissions WHERE user_uuid = ANY($1::text[]) OR target_uuid = ANY($1::text[])',
      'DELETE FROM links WHERE tail_uuid = ANY($1::text[]) OR head_uuid = ANY($1::text[])',
      'DELETE FROM collections WHERE uuid = ANY($1::text[]) OR owner_uuid = ANY($1::text[])',
      'DELETE FROM groups WHERE uuid = ANY($1::text[])',
      'DELETE FROM api_client_authorizations WHERE owner_uuid = ANY($1::text[])',
      'DELETE FROM users WHERE uuid = ANY($1::text[])',
    ]) {
      await tx.query({ text, values: [uuids] });
    }
  });
}
