import { groups } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { listLimitsOf, parseListParams } from '@svc/list-engine';
import { arrayOption, type Call, type Reply } from '../call';
import { renderAll } from '../resources/common/crud';
import type { Row } from '../resources/common/row';
import { filtersByType } from './filters';
import { loadIncluded } from './included';
import { orderByType, selectByType } from './order-select';
import { countTypes, pageOfType } from './query';
import { counterCount, typeScope } from './scope';
import { resolveTarget } from './target';
import { CONTENT_RULES, type TypePlan } from './types';

/** `include`: only these values (groups.md §3 step 9). */
export function includeParam(call: Call, allowed: readonly string[]): Set<string> {
  const values = arrayOption(call, 'include') ?? [];
  for (const v of values) {
    if (typeof v !== 'string' || !allowed.includes(v)) {
      throw new UnprocessableError(
        `Invalid value for include parameter: '${typeof v === 'string' ? v : JSON.stringify(v)}'`,
      );
    }
  }
  return new Set(values as string[]);
}

/** limit (default 100, clamped), offset and count, checked as for any list. */
function pagingOf(call: Call) {
  const { limit, offset, count } = call.options;
  const plan = parseListParams(groups, { limit, offset, count }, listLimitsOf(call.cluster.API));
  return { limit: plan.limit, offset: plan.offset, count: plan.count === 'exact' };
}

/** Every type that remains after `is_a`, with its conditions, order and selection. */
function typePlans(call: Call, storedFilters: readonly unknown[]): TypePlan[] {
  const filters = [...(arrayOption(call, 'filters') ?? []), ...storedFilters];
  const where = filtersByType(CONTENT_RULES, filters);
  const remaining = CONTENT_RULES.filter((r) => where.has(r));
  const order = orderByType(CONTENT_RULES, arrayOption(call, 'order'));
  const select = selectByType(remaining, arrayOption(call, 'select'));
  return remaining.map((rules) => ({
    rules,
    where: where.get(rules) ?? null,
    order: order.get(rules)!,
    select: select.get(rules) ?? null,
  }));
}

/**
 * groups.contents (groups.md §3): the four types' sorted lists, concatenated in the fixed type
 * order, paged over the concatenation. Each type is counted once (with count=none, only a type
 * the offset passes over whole); a page reads only the types it touches, each from its own
 * offset, so nothing is loaded to be skipped.
 */
export async function contents(call: Call): Promise<Reply> {
  const include = includeParam(call, ['owner_uuid', 'container_uuid']);
  const paging = pagingOf(call);
  const { target, storedFilters } = await resolveTarget(call, paging.count);
  const plans = typePlans(call, storedFilters);
  // A recursive owner set is a subquery whose size decides the plan: never a generic plan.
  const custom = target.kind === 'owners' && target.tree !== undefined;
  const oneOwner =
    target.kind === 'owners' && target.tree === undefined && target.owners.length === 1;
  const types = plans.map((plan) => ({
    plan,
    scope: typeScope(call, plan.rules, target),
    counter: counterCount(call, plan.rules, target, plan.where !== null),
    custom,
  }));
  // count=none: a type is counted only when the offset passes over it whole.
  const counts = paging.count ? await countTypes(call, types) : null;
  const items: Record<string, unknown>[] = [];
  const rows: Row[] = [];
  const requests: Row[] = [];
  let offset = paging.offset;
  let wanted = paging.limit;
  for (const [i, type] of types.entries()) {
    if (wanted <= 0) break;
    const n = counts?.[i];
    if (n !== undefined && offset >= n) {
      offset -= n;
      continue;
    }
    const { plan, scope } = type;
    const page = await pageOfType(
      call,
      plan,
      scope,
      Math.min(wanted, (n ?? Infinity) - offset),
      offset,
      { custom, oneOwner },
    );
    if (page.length === 0 && n === undefined && offset > 0) {
      offset = Math.max(0, offset - (await countTypes(call, [type]))[0]!);
      continue;
    }
    offset = 0;
    wanted -= page.length;
    rows.push(...page);
    if (plan.rules.resource.type === 'container_requests') requests.push(...page);
    items.push(...(await renderAll(call, plan.rules, page, plan.select, true)));
  }
  const total = (counts ?? []).reduce((a, b) => a + b, 0);
  return {
    body: {
      kind: 'svc#objectList',
      offset: paging.offset,
      limit: paging.limit,
      items,
      ...(paging.count ? { items_available: total } : {}),
      ...(include.size > 0 ? { included: await loadIncluded(call, include, rows, requests) } : {}),
    },
  };
}
