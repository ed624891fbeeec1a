import { logs } from '@svc/contract';
import { sql } from '@svc/list-engine';
import type { ResourceRules } from '../common/rules';
import { adminWritesPolicy } from '../../permissions/policies';
import { callerSet, col } from '../../permissions/caller-set';
import { READ } from '../../permissions/levels';
import { directRow, ownerRow } from '../../permissions/visibility';

/** Non-admins read a log they own, or whose object they can read (other-resources.md §4). */
function logVisible(user: string) {
  const object = col('logs', 'object_uuid');
  return sql`(${col('logs', 'owner_uuid')} = ${user} OR ${object} IN ${callerSet(user)}
    OR ${directRow(user, object, READ)}
    OR EXISTS (SELECT 1 FROM object_owners o WHERE o.uuid = ${object}
                AND (o.owner_uuid IN ${callerSet(user)} OR ${ownerRow(user, sql`o.owner_uuid`, READ)})))`;
}

/** Only admins write logs. */
export const logRules: ResourceRules = {
  resource: logs,
  policy: {
    ...adminWritesPolicy,
    visible: (call) => (call.caller.isAdmin ? [] : [logVisible(call.caller.uuid)]),
  },
  async prepareCreate(ctx, row) {
    row['event_at'] = ctx.input['event_at'] ?? ctx.now;
  },
};
