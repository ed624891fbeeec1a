import { sql } from '@svc/list-engine';
import { col } from '../../permissions/caller-set';
import { MANAGE } from '../../permissions/levels';
import { requireAdmin } from '../../permissions/admin';
import { requireActive, requireLevel, type AccessPolicy } from '../../permissions/policy';
import { userVisible } from '../../permissions/visibility';

/**
 * Users: admins see and change everyone. Others see themselves and the active users their
 * permissions reach (other-resources.md §5); update their own record (even when inactive) or one
 * they manage; only admins create and delete (permissions.md §6, §8).
 */
export const userPolicy: AccessPolicy = {
  visible(call) {
    // A user merged into another is gone for everyone (docs/api/more-resources.md §5.6).
    const notMerged = sql`${col('users', 'redirect_to_user_uuid')} IS NULL`;
    if (call.caller.isAdmin) return [notMerged];
    const me = call.caller.uuid;
    return [
      notMerged,
      sql`(${userVisible(me)} AND (${col('users', 'is_active')} OR ${col('users', 'uuid')} = ${me}))`,
    ];
  },
  async create(call) {
    requireAdmin(call);
  },
  async write(call, tx, row, _attrs, op) {
    if (call.caller.isAdmin) return;
    if (op === 'delete') requireAdmin(call);
    if (row['uuid'] === call.caller.uuid) return;
    requireActive(call);
    await requireLevel(call, tx, String(row['uuid']), MANAGE);
  },
};

/** What non-admins see of other users (other-resources.md §5). */
export const PUBLIC_USER_ATTRIBUTES = new Set([
  'kind',
  'uuid',
  'owner_uuid',
  'email',
  'username',
  'first_name',
  'last_name',
  'full_name',
  'is_active',
  'is_admin',
  'is_invited',
  'can_write',
  'can_manage',
]);
