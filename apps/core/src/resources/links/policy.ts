import { msg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { sql, type Sql } from '@svc/list-engine';
import { allOf, callerSet, col } from '../../permissions/caller-set';
import { MANAGE } from '../../permissions/levels';
import { hiddenScope, ownedPolicy } from '../../permissions/policies';
import { requireActive, requireLevel, type AccessPolicy } from '../../permissions/policy';
import { isReadable } from '../../permissions/readable';
import { directRow, ownedObjectVisible, ownerRow } from '../../permissions/visibility';

const owned = ownedPolicy('links');
const isPermission = (attrs: Readonly<Record<string, unknown>>): boolean =>
  attrs['link_class'] === 'permission';

/** can_manage on the link's head (objects owned by S, managed through the owner, or directly). */
function managesHead(user: string): Sql {
  const head = col('links', 'head_uuid');
  return sql`(${head} IN ${callerSet(user)} OR ${directRow(user, head, MANAGE)}
    OR EXISTS (SELECT 1 FROM object_owners o WHERE o.uuid = ${head}
                AND (o.owner_uuid IN ${callerSet(user)} OR ${ownerRow(user, sql`o.owner_uuid`, MANAGE)})))`;
}

/**
 * Permission links have their own read rule — their tail user, their head user, and whoever
 * manages the head (permissions.md §3) — and need manage on the head to change. Other links are
 * ordinary owned objects.
 */
export const linkPolicy: AccessPolicy = {
  visible(call, purpose) {
    const me = call.caller.uuid;
    const admin = call.caller.isAdmin;
    const ordinary = allOf([
      ...(admin ? [] : [ownedObjectVisible(me, 'links')]),
      ...hiddenScope(call, 'links', purpose, false),
    ]);
    const permission = admin
      ? sql`TRUE`
      : sql`(${col('links', 'tail_uuid')} = ${me} OR ${col('links', 'head_uuid')} = ${me} OR ${managesHead(me)})`;
    const klass = col('links', 'link_class');
    return [
      sql`((${klass} = 'permission' AND ${permission}) OR (${klass} <> 'permission' AND ${ordinary}))`,
    ];
  },
  async create(call, tx, attrs) {
    if (!isPermission(attrs)) return owned.create(call, tx, attrs);
    requireActive(call);
    const head = attrs['head_uuid'];
    if (typeof head !== 'string') return;
    if (!(await isReadable(tx, call, head)))
      throw new UnprocessableError(msg.referenceNotFound('head_uuid', head));
    await requireLevel(call, tx, head, MANAGE);
  },
  async write(call, tx, row, attrs, op) {
    if (!isPermission(row)) return owned.write(call, tx, row, attrs, op);
    requireActive(call);
    await requireLevel(call, tx, String(row['head_uuid']), MANAGE);
  },
};
