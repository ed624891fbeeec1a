import type { Call } from '../call';
import { statement, type Db } from '../db/db';
import { includeTrash } from './include-trash';
import { isGroupUuid } from './kinds';
import { READ } from './levels';
import { levelOf } from './level-of';

/** Trashed itself (groups, collections) or beneath a trashed group. */
async function isHidden(db: Db, uuid: string): Promise<boolean> {
  const { rows } = await db.query(
    statement(
      `SELECT 1 FROM object_owners o WHERE o.uuid = $1 AND (
         EXISTS (SELECT 1 FROM hidden_groups tg WHERE tg.group_uuid IN (o.uuid, o.owner_uuid)
                  AND tg.trash_at <= statement_timestamp())
         OR EXISTS (SELECT 1 FROM collections c WHERE c.uuid = o.uuid AND c.trash_at <= statement_timestamp()))`,
      [uuid],
      'object_hidden',
    ),
  );
  return rows.length > 0;
}

/**
 * Can the caller read the object a reference names (requests-and-errors.md §9)? It must exist,
 * be readable — roles are readable by every active user (permissions.md §7 rule 2) — and not
 * be hidden by trash unless the call says include_trash=true (§7), admins included.
 */
export async function isReadable(db: Db, call: Call, uuid: string): Promise<boolean> {
  const { caller } = call;
  let readable = (await levelOf(db, caller, uuid)) >= READ;
  if (!readable && caller.isActive && isGroupUuid(uuid)) {
    const { rows } = await db.query(
      statement(`SELECT 1 FROM groups WHERE uuid = $1 AND group_class = 'role'`, [uuid], 'is_role'),
    );
    readable = rows.length > 0;
  }
  return readable && (includeTrash(call) || !(await isHidden(db, uuid)));
}
