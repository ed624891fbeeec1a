import type { Call } from '../../call';
import type { Row } from './row';

/**
 * can_write / can_manage / writable_by (permissions.md §10) for callers whose level on every
 * object is "manage": admins. The permission model refines this for everyone else.
 */
export function adminPermissionFlag(call: Call, name: string, row: Row): unknown {
  switch (name) {
    case 'can_write':
    case 'can_manage':
      return call.caller.isAdmin;
    case 'writable_by':
      return [...new Set([String(row['owner_uuid']), call.caller.uuid])];
    default:
      return undefined;
  }
}
