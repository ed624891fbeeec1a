import { msg } from '@svc/contract';
import { ForbiddenError, UnprocessableError } from '@svc/errors';
import type { Call } from '../call';
import { statement, type Db } from '../db/db';
import { isGroupUuid, isUserUuid } from './kinds';
import { WRITE } from './levels';
import { isReadable } from './readable';
import { levelOf } from './level-of';

async function groupClassOf(tx: Db, uuid: string): Promise<string | null> {
  const { rows } = await tx.query<{ group_class: string }>(
    statement('SELECT group_class FROM groups WHERE uuid = $1', [uuid]),
  );
  return rows[0]?.group_class ?? null;
}

/** An owner must exist, be readable, and be a user or a project (permissions.md §2). */
async function checkOwnerKind(tx: Db, call: Call, owner: string): Promise<void> {
  if (!(await isReadable(tx, call, owner)))
    throw new UnprocessableError(msg.referenceNotFound('owner_uuid', owner));
  if (isUserUuid(owner)) return;
  if (!isGroupUuid(owner) || (await groupClassOf(tx, owner)) !== 'project') {
    throw new UnprocessableError('owner_uuid must be a user or a project');
  }
}

const withoutWrite = (which: 'old' | 'new') =>
  new ForbiddenError(
    `owner_uuid cannot be set or changed without write permission on ${which} owner`,
  );

/** Creating in an owner needs write on it (callers always have it on themselves). */
export async function checkCreateOwner(tx: Db, call: Call, owner: string): Promise<void> {
  const { caller } = call;
  if (owner === caller.uuid) return;
  await checkOwnerKind(tx, call, owner);
  if ((await levelOf(tx, caller, owner)) < WRITE) throw withoutWrite('new');
}

/** A group may not move into itself or anything beneath it. */
async function wouldCycle(tx: Db, group: string, newOwner: string): Promise<boolean> {
  const { rows } = await tx.query(
    statement(
      `WITH RECURSIVE up(uuid) AS (SELECT $2::text COLLATE "C" UNION SELECT g.owner_uuid FROM groups g JOIN up ON g.uuid = up.uuid)
       SELECT 1 FROM up WHERE uuid = $1 LIMIT 1`,
      [group, newOwner],
    ),
  );
  return rows.length > 0;
}

/** Moving needs write on the old and the new owner; groups may not create ownership cycles. */
export async function checkOwnerChange(
  tx: Db,
  call: Call,
  object: string,
  oldOwner: string,
  newOwner: string,
): Promise<void> {
  const { caller } = call;
  await checkOwnerKind(tx, call, newOwner);
  if (isGroupUuid(object) && (await wouldCycle(tx, object, newOwner))) {
    throw new UnprocessableError('owner_uuid would create an ownership cycle');
  }
  if ((await levelOf(tx, caller, oldOwner)) < WRITE) throw withoutWrite('old');
  if ((await levelOf(tx, caller, newOwner)) < WRITE) throw withoutWrite('new');
}
