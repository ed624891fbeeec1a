import { includeTrash } from './include-trash';
import type { Sql } from '@svc/list-engine';
import type { Call } from '../call';
import { WRITE } from './levels';
import {
  checkOwnerOnCreate,
  checkOwnerOnUpdate,
  requireActive,
  requireLevel,
  type AccessPolicy,
  type Purpose,
} from './policy';
import { requireAdmin } from './admin';
import {
  notHiddenByOwner,
  notHiddenInsideFrozen,
  notTrashedItself,
  ownedObjectVisible,
} from './visibility';

export { includeTrash };

/**
 * Hidden objects (trashed, or beneath a trashed group) are left out unless include_trash=true.
 * A removal finds an object that is trashed itself (groups.md §6).
 */
export function hiddenScope(
  call: Call,
  table: string,
  purpose: Purpose,
  trashable: boolean,
): Sql[] {
  if (includeTrash(call)) {
    return call.caller.isAdmin ? [] : [notHiddenInsideFrozen(table, trashable)];
  }
  return [
    notHiddenByOwner(table),
    ...(trashable && purpose === 'read' ? [notTrashedItself(table)] : []),
  ];
}

/**
 * Ordinary owned objects (collections, workflows, container requests, links that are not
 * permissions): visible through the owner or a share; writes need write on the object, creates
 * and moves write on the owners (permissions.md §2, §7, §8).
 */
export function ownedPolicy(table: string, trashable = false): AccessPolicy {
  return {
    visible: (call, purpose) => [
      ...(call.caller.isAdmin ? [] : [ownedObjectVisible(call.caller.uuid, table)]),
      ...hiddenScope(call, table, purpose, trashable),
    ],
    async create(call, tx, attrs) {
      requireActive(call);
      await checkOwnerOnCreate(call, tx, attrs);
    },
    async write(call, tx, row, attrs) {
      requireActive(call);
      await requireLevel(call, tx, String(row['uuid']), WRITE);
      await checkOwnerOnUpdate(call, tx, row, attrs);
    },
  };
}

/** Readable by every valid token; only admins create, change or delete. */
export const adminWritesPolicy: AccessPolicy = {
  visible: () => [],
  async create(call) {
    requireActive(call);
    requireAdmin(call);
  },
  async write(call) {
    requireActive(call);
    requireAdmin(call);
  },
};
