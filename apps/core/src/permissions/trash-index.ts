import { statement, type Db } from '../db/db';

/**
 * Keeps trashed_groups right for the subtree of one group after its trash_at or owner changed,
 * or it was created: each group of the subtree with its earliest trash_at on the way up (none:
 * no row). One statement, so a subtree of 100,000 groups never travels to the server process;
 * rows whose value is unchanged are not rewritten. Ownership has no cycles (owner changes
 * refuse them), so the walk ends.
 */
const REFRESH = `
WITH RECURSIVE walk(uuid, eff) AS (
  SELECT g.uuid, least(g.trash_at, (SELECT tg.trash_at FROM trashed_groups tg WHERE tg.group_uuid = g.owner_uuid))
    FROM groups g WHERE g.uuid = $1
  UNION ALL
  SELECT c.uuid, least(c.trash_at, w.eff) FROM groups c JOIN walk w ON c.owner_uuid = w.uuid
),
cleared AS (
  DELETE FROM trashed_groups tg USING walk w
   WHERE tg.group_uuid = w.uuid AND w.eff IS NULL
)
INSERT INTO trashed_groups (group_uuid, trash_at)
SELECT uuid, eff FROM walk WHERE eff IS NOT NULL
ON CONFLICT (group_uuid) DO UPDATE SET trash_at = excluded.trash_at
 WHERE trashed_groups.trash_at IS DISTINCT FROM excluded.trash_at`;

export async function refreshTrashedGroups(tx: Db, groupUuid: string): Promise<void> {
  await tx.query(statement(REFRESH, [groupUuid], 'trash_refresh'));
}
