import { moreMsg, msg } from '@svc/contract';
import { ForbiddenError, UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';
import { statement, type Db } from '../../db/db';
import { isGroupUuid, isUserUuid } from '../../permissions/kinds';
import { MANAGE, WRITE } from '../../permissions/levels';
import { levelOf } from '../../permissions/level-of';
import { requireActive, requireLevel, type AccessPolicy } from '../../permissions/policy';
import { ownedObjectVisible } from '../../permissions/visibility';

/**
 * The user or role a new credential is shared with at can_manage (docs/api/more-resources.md §7.2): the
 * caller, or the body's owner_uuid — a user or role the caller is or manages.
 */
export async function credentialManager(call: Call, tx: Db, owner: unknown): Promise<string> {
  if (typeof owner !== 'string' || owner === '' || owner === call.caller.uuid)
    return call.caller.uuid;
  const kind = isUserUuid(owner) ? 'users' : isGroupUuid(owner) ? 'groups' : null;
  const role = kind === 'groups' ? ` AND group_class = 'role'` : '';
  const { rows } =
    kind === null
      ? { rows: [] }
      : await tx.query(statement(`SELECT 1 FROM ${kind} WHERE uuid = $1${role}`, [owner]));
  if (rows.length === 0) throw new UnprocessableError(moreMsg.credentialOwnerKind());
  if (!call.caller.isAdmin && (await levelOf(tx, call.caller, owner)) < MANAGE)
    throw new ForbiddenError(msg.insufficientPermission(owner));
  return owner;
}

/** Visible through a permission path to the credential; writes need write on it. */
export const credentialPolicy: AccessPolicy = {
  visible: (call) =>
    call.caller.isAdmin ? [] : [ownedObjectVisible(call.caller.uuid, 'credentials')],
  async create(call) {
    requireActive(call);
  },
  async write(call, tx, row) {
    requireActive(call);
    await requireLevel(call, tx, String(row['uuid']), WRITE);
  },
};
