import { convertParam, moreMsg, msg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { join, raw, sql, toQuery } from '@svc/list-engine';
import type { Call, Reply } from '../../call';
import { requireAdmin } from '../../permissions/admin';
import { allConditions, condition, orderBy, whereConditions } from './query';

const LEVEL_NAMES =
  "CASE perm_level WHEN 3 THEN 'can_manage' WHEN 2 THEN 'can_write' ELSE 'can_read' END";
const FIELDS = ['user_uuid', 'target_uuid', 'perm_level'] as const;

/** Each user's highest level per target, every user on itself at can_manage (§10.2). */
const ROWS = `(SELECT user_uuid, target_uuid, max(perm_level) AS perm_level FROM (
    SELECT user_uuid, target_uuid, perm_level FROM materialized_permissions
    UNION ALL SELECT uuid, uuid, 3 FROM users WHERE redirect_to_user_uuid IS NULL) s
  GROUP BY user_uuid, target_uuid) AS cp`;

function selected(call: Call): string[] {
  const select = convertParam('select', 'array', call.options['select']) as unknown[] | undefined;
  if (select === undefined) return [...FIELDS];
  if (select.length === 0) throw new UnprocessableError(msg.emptySelect());
  for (const s of select) {
    if (s !== 'kind' && !(FIELDS as readonly unknown[]).includes(s))
      throw new UnprocessableError(msg.invalidSelectAttribute(String(s)));
  }
  return FIELDS.filter((f) => select.includes(f));
}

function checkPaging(call: Call): void {
  const count = call.options['count'];
  if (count !== undefined && count !== null && count !== '' && count !== 'none')
    throw new UnprocessableError(moreMsg.computedCount());
  const offset = call.options['offset'];
  if (offset !== undefined && offset !== null && offset !== 0)
    throw new UnprocessableError(moreMsg.computedOffset(String(offset)));
}

/**
 * `GET /computed_permissions` (docs/api/more-resources.md §10.2): rows of the materialized permission
 * table, admins only, paged by filter (no offset, no count).
 */
export async function listComputedPermissions(call: Call): Promise<Reply> {
  requireAdmin(call);
  const filters = (call.options['filters'] as unknown[] | undefined) ?? [];
  const where = (call.options['where'] as Record<string, unknown> | undefined) ?? {};
  const conditions = [...filters.map(condition), ...whereConditions(where)];
  const fields = selected(call);
  const distinct = call.options['distinct'] === true;
  // DISTINCT orders by what it selects: the order keys are kept to the selected uuids.
  const order = orderBy(
    (call.options['order'] as unknown[] | undefined) ?? [],
    distinct ? fields : undefined,
  );
  checkPaging(call);
  const limit = Math.min(
    (call.options['limit'] as number | undefined) ?? 100,
    call.cluster.API.MaxItemsPerResponse,
  );
  const columns = join(
    fields.map((f) => raw(f === 'perm_level' ? `${LEVEL_NAMES} AS perm_level` : `"${f}"`)),
    ', ',
  );
  const { rows } = await call.db.query<Record<string, unknown>>(
    toQuery(
      sql`SELECT ${raw(distinct ? 'DISTINCT' : '')} ${columns} FROM ${raw(ROWS)}
           WHERE ${allConditions(conditions)} ${order} LIMIT ${limit}`,
    ),
  );
  const items = rows.map((r) => {
    const item: Record<string, unknown> = { kind: 'svc#computedPermission' };
    for (const f of fields) item[f] = r[f];
    return item;
  });
  return { body: { kind: 'svc#computedPermissionList', limit, items } };
}
