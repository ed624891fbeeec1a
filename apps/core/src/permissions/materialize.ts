import { builtInUuids } from '@svc/contract';
import { statement, type Db } from '../db/db';
import { groupSql, userSql } from './kinds';

/**
 * Incremental maintenance of materialized_permissions (permissions.md §9, docs/adr/0004).
 *
 * After edges tail → head changed, only targets in the subtree below the heads (reached through
 * groups) can have new levels, and only for users who reach a tail (the tail itself when it is a
 * user, the users holding a row on it when it is a group: rows on a tail never depend on edges
 * out of it, because a best path to the tail never needs to leave it). So: delete those users'
 * rows on the subtree, then walk the subtree again from its entries — the users' own edges into
 * it, and edges from groups outside it seeded with the (unchanged) rows the users hold on those
 * groups. Users reached below level 3 are dead ends and not stored (see the migration).
 */
const SUBTREE = `
WITH RECURSIVE subtree(node) AS (
  SELECT unnest($1::text[]) COLLATE "C"
  UNION
  SELECT e.head_uuid FROM subtree s CROSS JOIN LATERAL permission_edges_from(s.node) e
   WHERE ${groupSql('s.node')}
)
SELECT coalesce(array_agg(node), '{}') AS nodes FROM subtree`;

/** Users who reach one of the tails: the tails that are users, and users with a row on a group tail. */
const USERS_REACHING = `
SELECT coalesce(array_agg(DISTINCT u), '{}') AS users FROM (
  SELECT t AS u FROM unnest($1::text[]) t WHERE ${userSql('t')}
  UNION ALL
  SELECT user_uuid FROM materialized_permissions
   WHERE target_uuid = ANY($1::text[]) AND ${groupSql('target_uuid')}
) s`;

/**
 * The walk of the subtree $1 ($2: the system user, who needs no rows). `users` restricts it to
 * the users in $3; without it every user is walked.
 */
const refill = (users: 'some' | 'all') => {
  const onlyUsers = (column: string) => (users === 'some' ? `AND ${column} = ANY($3::text[])` : '');
  return `
WITH RECURSIVE
entries AS (
  SELECT e.tail_uuid, e.head_uuid, e.level FROM permission_edges e
   WHERE e.head_uuid = ANY($1::text[])
),
seeds(user_uuid, node, level) AS (
  SELECT p.user_uuid, en.head_uuid, least(p.perm_level, en.level)
    FROM entries en JOIN materialized_permissions p ON p.target_uuid = en.tail_uuid
   WHERE ${groupSql('en.tail_uuid')} AND NOT (en.tail_uuid = ANY($1::text[]))
     ${onlyUsers('p.user_uuid')}
  UNION ALL
  SELECT en.tail_uuid, en.head_uuid, en.level FROM entries en
   WHERE ${userSql('en.tail_uuid')} AND en.tail_uuid <> $2
     ${onlyUsers('en.tail_uuid')}
),
walk(user_uuid, node, level) AS (
  SELECT user_uuid, node, level FROM seeds
   WHERE ${userSql('node', true)} OR level = 3
  UNION
  SELECT w.user_uuid, e.head_uuid, least(w.level, e.level)::smallint
    FROM walk w CROSS JOIN LATERAL permission_edges_from(w.node) e
   WHERE ${groupSql('w.node')}
     AND (${userSql('e.head_uuid', true)} OR least(w.level, e.level) = 3)
)
INSERT INTO materialized_permissions (user_uuid, target_uuid, perm_level, traverse_owned)
SELECT user_uuid, node, max(level), (${groupSql('node')} OR max(level) = 3)
  FROM walk GROUP BY user_uuid, node`;
};
const REFILL_SOME = refill('some');
const REFILL_ALL = refill('all');

/** Any fixed number: serializes permission refreshes (migrations use another). */
const PERMISSIONS_LOCK = 7_311_003;

/**
 * Brings materialized_permissions up to date after edges into `heads` were added, changed or
 * removed. `tails` are those edges' tails; when they are not known (an object deleted with
 * whatever pointed at it) every user is recomputed on the subtree.
 */
export async function refreshPermissions(
  tx: Db,
  clusterId: string,
  heads: readonly string[],
  tails?: readonly string[],
): Promise<void> {
  const started = process.hrtime.bigint();
  try {
    await refreshNow(tx, clusterId, heads, tails);
  } finally {
    refreshTimings.get(clusterId)?.(Number(process.hrtime.bigint() - started) / 1e9);
  }
}

/** Each running core's observer of its refresh durations (its metrics), by cluster id. */
export const refreshTimings = new Map<string, (seconds: number) => void>();

async function refreshNow(
  tx: Db,
  clusterId: string,
  heads: readonly string[],
  tails?: readonly string[],
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
  const systemUser = builtInUuids(clusterId).systemUser;
  if (tails === undefined) {
    await tx.query(
      statement(
        'DELETE FROM materialized_permissions WHERE target_uuid = ANY($1::text[])',
        [nodes],
        'perm_clear',
      ),
    );
    await tx.query(statement(REFILL_ALL, [nodes, systemUser], 'perm_refill'));
    return;
  }
  const users = await usersReaching(tx, tails);
  if (users.length === 0) return;
  await tx.query(
    statement(
      'DELETE FROM materialized_permissions WHERE target_uuid = ANY($1::text[]) AND user_uuid = ANY($2::text[])',
      [nodes, users],
      'perm_clear_users',
    ),
  );
  await tx.query(statement(REFILL_SOME, [nodes, systemUser, users], 'perm_refill_users'));
}

async function usersReaching(tx: Db, tails: readonly string[]): Promise<string[]> {
  const unique = [...new Set(tails.filter((t) => t !== ''))];
  if (unique.length === 0) return [];
  const { rows } = await tx.query<{ users: string[] }>(
    statement(USERS_REACHING, [unique], 'perm_users_reaching'),
  );
  return rows[0]?.users ?? [];
}

/** Recomputes the whole table: for tests comparing it with the incremental result, never at run time. */
export async function recomputeAllPermissions(tx: Db, clusterId: string): Promise<void> {
  await tx.query(statement('DELETE FROM materialized_permissions'));
  const { rows } = await tx.query<{ uuid: string }>(
    statement(
      `SELECT uuid FROM groups UNION SELECT uuid FROM users UNION SELECT head_uuid FROM links WHERE link_class = 'permission' AND head_uuid IS NOT NULL`,
    ),
  );
  await tx.query(
    statement(REFILL_ALL, [rows.map((r) => r.uuid), builtInUuids(clusterId).systemUser]),
  );
}
