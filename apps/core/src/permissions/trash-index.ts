import { statement, type Db } from '../db/db';

/** Each group of the subtree with its earliest trash_at on the way up (null: not trashed). */
const WALK = `
WITH RECURSIVE walk(uuid, eff) AS (
  SELECT g.uuid, least(g.trash_at, (SELECT tg.trash_at FROM trashed_groups tg WHERE tg.group_uuid = g.owner_uuid))
    FROM groups g WHERE g.uuid = $1
  UNION ALL
  SELECT c.uuid, least(c.trash_at, w.eff) FROM groups c JOIN walk w ON c.owner_uuid = w.uuid
)
SELECT uuid, eff::text AS eff FROM walk`;

/**
 * Keeps trashed_groups right for the subtree of one group after its trash_at or owner changed,
 * or it was created. Ownership has no cycles (owner changes refuse them), so the walk ends.
 */
export async function refreshTrashedGroups(tx: Db, groupUuid: string): Promise<void> {
  const { rows } = await tx.query<{ uuid: string; eff: string | null }>(
    statement(WALK, [groupUuid], 'trash_walk'),
  );
  const uuids = rows.map((r) => r.uuid);
  await tx.query(
    statement(
      'DELETE FROM trashed_groups WHERE group_uuid = ANY($1::text[])',
      [uuids],
      'trash_clear',
    ),
  );
  const trashed = rows.filter((r) => r.eff !== null);
  if (trashed.length === 0) return;
  await tx.query(
    statement(
      'INSERT INTO trashed_groups (group_uuid, trash_at) SELECT * FROM unnest($1::text[], $2::timestamptz[])',
      [trashed.map((r) => r.uuid), trashed.map((r) => r.eff)],
      'trash_fill',
    ),
  );
}
