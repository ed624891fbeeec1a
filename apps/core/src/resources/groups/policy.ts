import { MANAGE, WRITE } from '../../permissions/levels';
import { includeTrash } from '../../permissions/policies';
import {
  checkOwnerOnCreate,
  checkOwnerOnUpdate,
  requireActive,
  requireLevel,
  type AccessPolicy,
} from '../../permissions/policy';
import {
  groupNotHidden,
  groupVisible,
  notHiddenByOwner,
  notHiddenInsideFrozen,
} from '../../permissions/visibility';

/**
 * Groups: visible through stored rows (roles to every active user); hidden when they or an
 * ancestor are trashed, except that removal finds a group trashed itself (groups.md §6).
 * Writes need write, roles manage (permissions.md §4, §8). Roles are owned by the system user,
 * so their creation has no owner to check.
 */
export const groupPolicy: AccessPolicy = {
  visible(call, purpose) {
    const scope = call.caller.isAdmin ? [] : [groupVisible(call.caller.uuid, call.caller.isActive)];
    if (includeTrash(call)) {
      return call.caller.isAdmin ? scope : [...scope, notHiddenInsideFrozen('groups', true)];
    }
    return [...scope, purpose === 'remove' ? notHiddenByOwner('groups') : groupNotHidden()];
  },
  async create(call, tx, attrs) {
    requireActive(call);
    if (attrs['group_class'] !== 'role') await checkOwnerOnCreate(call, tx, attrs);
  },
  async write(call, tx, row, attrs) {
    requireActive(call);
    await requireLevel(
      call,
      tx,
      String(row['uuid']),
      row['group_class'] === 'role' ? MANAGE : WRITE,
    );
    if (row['group_class'] !== 'role') await checkOwnerOnUpdate(call, tx, row, attrs);
  },
};

export const isRole = (row: Record<string, unknown>): boolean => row['group_class'] === 'role';
