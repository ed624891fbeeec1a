import type { ClusterConfig } from '@svc/config';
import { moreMsg } from '@svc/contract';
import { ForbiddenError, NotLoggedInError, UnprocessableError } from '@svc/errors';
import { parseUuid } from '@svc/ids';
import { validateToken } from '../../auth/validate-token';
import type { Call, Caller } from '../../call';
import { statement, type Db } from '../../db/db';
import { levelOf } from '../../permissions/level-of';
import { WRITE } from '../../permissions/levels';

interface UserFacts {
  uuid: string;
  is_admin: boolean;
  is_active: boolean;
  merged: boolean;
}

async function userFacts(db: Db, uuid: string): Promise<UserFacts | null> {
  const { rows } = await db.query<UserFacts>(
    statement(
      `SELECT uuid, is_admin, is_active, redirect_to_user_uuid IS NOT NULL AS merged
         FROM users WHERE uuid = $1`,
      [uuid],
    ),
  );
  return rows[0] ?? null;
}

const isAll = (scopes: readonly string[]): boolean => scopes.length === 1 && scopes[0] === 'all';
const str = (call: Call, name: string): string | null => {
  const v = call.options[name];
  return typeof v === 'string' && v !== '' ? v : null;
};

export interface MergePlan {
  old: UserFacts;
  next: UserFacts;
  newOwner: string;
  redirect: boolean;
}

/** The admin form: both uuids, existing users. */
async function adminForm(call: Call, oldUuid: string | null, newUuid: string | null) {
  if (!call.caller.isAdmin) throw new ForbiddenError(moreMsg.mergeNeedsAdmin());
  if (oldUuid === null || newUuid === null) throw new UnprocessableError(moreMsg.mergeNeedsBoth());
  const next = await userFacts(call.db, newUuid);
  if (!next) throw new UnprocessableError(moreMsg.mergeNewNotFound());
  const old = await userFacts(call.db, oldUuid);
  if (!old) throw new UnprocessableError(moreMsg.mergeOldNotFound());
  return { old, next };
}

/** The self form: the caller merges itself into the user of new_user_token. */
async function selfForm(call: Call, cluster: Readonly<ClusterConfig>) {
  if (!isAll(call.caller.identity.scopes)) throw new ForbiddenError(moreMsg.mergeScopedToken());
  const token = str(call, 'new_user_token');
  const valid = token ? await validateToken(call.db, cluster, { token, remote: null }) : null;
  if (!valid) throw new NotLoggedInError(moreMsg.mergeInvalidToken());
  const newUuid = valid.identity.userUuid;
  const local = parseUuid(newUuid)?.cluster === cluster.ClusterID;
  if (local && !isAll(valid.identity.scopes))
    throw new ForbiddenError(moreMsg.mergeRestrictedToken());
  const next = await userFacts(call.db, newUuid);
  const old = await userFacts(call.db, call.caller.uuid);
  if (!next || !old) throw new NotLoggedInError(moreMsg.mergeInvalidToken());
  return { old, next };
}

/** The checks of docs/api/more-resources.md §5.6, in their order; the plan of a merge that may go on. */
export async function checkMerge(call: Call): Promise<MergePlan> {
  const oldUuid = str(call, 'old_user_uuid');
  const newUuid = str(call, 'new_user_uuid');
  const { old, next } =
    oldUuid !== null || newUuid !== null
      ? await adminForm(call, oldUuid, newUuid)
      : await selfForm(call, call.cluster);
  if (old.uuid === next.uuid) throw new UnprocessableError(moreMsg.mergeToSelf());
  const newOwner = str(call, 'new_owner_uuid');
  if (newOwner === null) throw new UnprocessableError(moreMsg.mergeMissingOwner());
  const asNew: Caller = {
    uuid: next.uuid,
    isAdmin: next.is_admin,
    isActive: next.is_active,
    identity: { ...call.caller.identity, userUuid: next.uuid, isAdmin: next.is_admin },
  };
  const level = next.is_admin ? WRITE : await levelOf(call.db, asNew, newOwner);
  if (level < WRITE) throw new ForbiddenError(moreMsg.mergeOwnerNotWritable());
  if (old.merged) throw new UnprocessableError(moreMsg.mergeAlreadyMerged());
  if (next.merged) throw new UnprocessableError(moreMsg.mergeToMerged());
  return { old, next, newOwner, redirect: call.options['redirect_to_new_user'] === true };
}
