import { statement, type Db } from '../db/db';
import type { Caller } from '../call';
import { isGroupUuid, READ } from './levels';
import { levelOf } from './level-of';

/**
 * Can the caller read the object a reference names (requests-and-errors.md §9)? Roles are
 * readable by every active user (permissions.md §7 rule 2).
 */
export async function isReadable(db: Db, caller: Caller, uuid: string): Promise<boolean> {
  if ((await levelOf(db, caller, uuid)) >= READ) return true;
  if (!caller.isActive || !isGroupUuid(uuid)) return false;
  const { rows } = await db.query(
    statement(`SELECT 1 FROM groups WHERE uuid = $1 AND group_class = 'role'`, [uuid]),
  );
  return rows.length > 0;
}
