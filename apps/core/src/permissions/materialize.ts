import { builtInUuids } from '@svc/contract';
import { statement, type Db } from '../db/db';

/**
 * Incremental maintenance of materialized_permissions (permissions.md §9, docs/adr/0004).
 *
 * After edges into `heads` changed, only targets in the subtree below them (reached through
 * groups) can have new levels; levels on every other node stay as they are. So: delete the
 * subtree's rows, then walk the subtree again from its entries — each user's own edges into it,
 * and edges from groups outside it, seeded with the (unchanged) rows users hold on those groups.
 * Users reached below level 3 are dead ends and not stored (see the migration).
 */
const SUBTREE = `
WITH RECURSIVE subtree(node) AS (
  SELECT unnest($1::text[]) COLLATE "C"
  UNION
  SELECT e.head_uuid FROM subtree s JOIN permission_edges e ON e.tail_uuid = s.node
   WHERE substr(s.node, 7, 5) = 'j7d0g'
)
SELECT coalesce(array_agg(node), '{}') AS nodes FROM subtree`;

const REFILL = `
WITH RECURSIVE
sub AS (SELECT unnest($1::text[]) AS node),
entries AS (
  SELECT e.tail_uuid, e.head_uuid, e.level FROM permission_edges e
   WHERE e.head_uuid = ANY($1::text[])
),
seeds(user_uuid, node, level) AS (
  SELECT p.user_uuid, en.head_uuid, least(p.perm_level, en.level)
    FROM entries en JOIN materialized_permissions p ON p.target_uuid = en.tail_uuid
   WHERE substr(en.tail_uuid, 7, 5) = 'j7d0g' AND NOT (en.tail_uuid = ANY($1::text[]))
  UNION ALL
  SELECT en.tail_uuid, en.head_uuid, en.level FROM entries en
   WHERE substr(en.tail_uuid, 7, 5) = 'tpzed' AND en.tail_uuid <> $2
),
walk(user_uuid, node, level) AS (
  SELECT user_uuid, node, level FROM seeds
   WHERE substr(node, 7, 5) <> 'tpzed' OR level = 3
  UNION
  SELECT w.user_uuid, e.head_uuid, least(w.level, e.level)::smallint
    FROM walk w JOIN permission_edges e ON e.tail_uuid = w.node
   WHERE substr(w.node, 7, 5) = 'j7d0g'
     AND (substr(e.head_uuid, 7, 5) <> 'tpzed' OR least(w.level, e.level) = 3)
)
INSERT INTO materialized_permissions (user_uuid, target_uuid, perm_level, traverse_owned)
SELECT user_uuid, node, max(level), (substr(node, 7, 5) = 'j7d0g' OR max(level) = 3)
  FROM walk GROUP BY user_uuid, node`;

/** Any fixed number: serializes permission refreshes (migrations use another). */
const PERMISSIONS_LOCK = 7_311_003;

/** Brings materialized_permissions up to date after edges into `heads` were added, changed or removed. */
export async function refreshPermissions(
  tx: Db,
  clusterId: string,
  heads: readonly string[],
): Promise<void> {
  const unique = [...new Set(heads.filter((h) => h !== ''))];
  if (unique.length === 0) return;
  // Refreshes delete and re-insert rows: two at once would insert the same keys. One at a time
  // per cluster database, held until the transaction ends.
  await tx.query(statement('SELECT pg_advisory_xact_lock($1)', [PERMISSIONS_LOCK], 'perm_lock'));
  const { rows } = await tx.query<{ nodes: string[] }>(
    statement(SUBTREE, [unique], 'perm_subtree'),
  );
  const nodes = rows[0]?.nodes ?? [];
  await tx.query(
    statement(
      'DELETE FROM materialized_permissions WHERE target_uuid = ANY($1::text[])',
      [nodes],
      'perm_clear',
    ),
  );
  await tx.query(statement(REFILL, [nodes, builtInUuids(clusterId).systemUser], 'perm_refill'));
}

/** Recomputes the whole table: for tests comparing it with the incremental result, never at run time. */
export async function recomputeAllPermissions(tx: Db, clusterId: string): Promise<void> {
  await tx.query(statement('DELETE FROM materialized_permissions'));
  const { rows } = await tx.query<{ uuid: string }>(
    statement(
      `SELECT uuid FROM groups UNION SELECT uuid FROM users UNION SELECT head_uuid FROM links WHERE link_class = 'permission' AND head_uuid IS NOT NULL`,
    ),
  );
  await tx.query(statement(REFILL, [rows.map((r) => r.uuid), builtInUuids(clusterId).systemUser]));
}
