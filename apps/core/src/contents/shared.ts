import { groups } from '@svc/contract';
import { compileList, listLimitsOf, parseListParams, sql } from '@svc/list-engine';
import type { Call, Reply } from '../call';
import { renderAll } from '../resources/common/crud';
import type { Row } from '../resources/common/row';
import { groupRules } from '../resources/groups/rules';
import { includeParam } from './contents';
import { loadIncluded } from './included';
import { sharedOwner } from './scope';

/**
 * groups.shared (groups.md §4): the readable project and filter groups that reach the caller
 * through sharing rather than through the caller's own ownership chain, as an ordinary group
 * list. `included`: their readable owners that are users or non-project groups.
 */
export async function shared(call: Call): Promise<Reply> {
  const include = includeParam(call, ['owner_uuid']);
  const plan = parseListParams(groups, call.options, listLimitsOf(call.cluster.API));
  const scope = [
    ...groupRules.policy.visible(call, 'read'),
    sql`"groups"."group_class" IN ('project', 'filter')`,
    sharedOwner(call, 'groups'),
  ];
  const withOwner = plan.select && !plan.select.includes('owner_uuid') && include.size > 0;
  const readPlan = withOwner ? { ...plan, select: [...plan.select!, 'owner_uuid'] } : plan;
  const extra = plan.distinct
    ? []
    : (groupRules.renderColumns?.(call, 'groups', plan.select) ?? []);
  const compiled = compileList(readPlan, scope, extra);
  const [items, count] = await Promise.all([
    call.db.query<Row>(compiled.items),
    compiled.count ? call.db.query<{ n: number | bigint }>(compiled.count) : null,
  ]);
  const included =
    include.size > 0
      ? await loadIncluded(
          call,
          include,
          items.rows,
          [],
          (o) => o['kind'] !== groups.kind || o['group_class'] !== 'project',
        )
      : null;
  return {
    body: {
      kind: `${groups.kind}List`,
      offset: plan.offset,
      limit: plan.limit,
      items: await renderAll(call, groupRules, items.rows, plan.select, true),
      ...(count ? { items_available: Number(count.rows[0]?.n ?? 0) } : {}),
      ...(included ? { included } : {}),
    },
  };
}
