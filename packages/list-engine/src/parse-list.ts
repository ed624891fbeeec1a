import { UnprocessableError } from '@svc/errors';
import { convertParam, isOrderable, msg, type ResourceSpec } from '@svc/contract';
import { compileFilters } from './filters';
import { distinctOrder, parseOrder } from './parse-order';
import { parseSelect } from './parse-select';
import type { CountMode, ListPlan } from './plan';
import { hasSqlForm } from './select-columns';

export const DEFAULT_LIMIT = 100;

export interface ListLimits {
  maxItemsPerResponse: number;
  /** API.MaxFilterConditions: `filters` elements and `where` entries together. */
  maxFilterConditions: number;
}

/** The limits of a cluster's API configuration section. */
export const listLimitsOf = (api: {
  MaxItemsPerResponse: number;
  MaxFilterConditions: number;
}): ListLimits => ({
  maxItemsPerResponse: api.MaxItemsPerResponse,
  maxFilterConditions: api.MaxFilterConditions,
});

/**
 * Each `filters` element (a condition or a boolean expression, which has one comparison) and
 * each `where` entry is one condition. Counted before any is parsed: a request with thousands
 * is refused before it costs anything (docs/api/requests-and-errors.md §7).
 */
function checkConditionCount(
  filters: readonly unknown[] | undefined,
  where: Record<string, unknown> | undefined,
  max: number,
): void {
  const n = (filters?.length ?? 0) + (where ? Object.keys(where).length : 0);
  if (n > max) throw new UnprocessableError(msg.tooManyFilterConditions(max));
}

function parseCount(value: unknown): CountMode {
  if (value === undefined || value === null || value === '' || value === 'exact') return 'exact';
  if (value === 'none') return 'none';
  throw new UnprocessableError(msg.countValue());
}

/**
 * Turns a list request's raw parameters into a validated plan (lists-and-filters.md §1–§4).
 * Every invalid value is a 422 with the contract's message.
 */
export function parseListParams(
  r: ResourceSpec,
  params: Readonly<Record<string, unknown>>,
  limits: ListLimits,
): ListPlan {
  const limit =
    (convertParam('limit', 'integer', params['limit']) as number | undefined) ?? DEFAULT_LIMIT;
  const offset = (convertParam('offset', 'integer', params['offset']) as number | undefined) ?? 0;
  const filters = convertParam('filters', 'array', params['filters']) as unknown[] | undefined;
  const orderRaw = convertParam('order', 'array', params['order']) as unknown[] | undefined;
  const select = parseSelect(
    r,
    convertParam('select', 'array', params['select']) as unknown[] | undefined,
  );
  const distinctParam =
    (convertParam('distinct', 'boolean', params['distinct']) as boolean | undefined) ?? false;
  const count = parseCount(convertParam('count', 'string', params['count']));
  const where = convertParam('where', 'object', params['where']) as
    Record<string, unknown> | undefined;

  checkConditionCount(filters, where, limits.maxFilterConditions);
  let order = parseOrder(r, orderRaw);
  const distinct =
    distinctParam && select !== null && select.every((a) => a === 'kind' || hasSqlForm(r, a));
  if (distinct) {
    const explicitUuid = (orderRaw ?? []).some(
      (e) => typeof e === 'string' && /^(\S+\.)?uuid(\s|$)/.test(e.trim()),
    );
    order = distinctOrder(order, explicitUuid, select, (a) => isOrderable(r, a));
  }
  return {
    resource: r,
    limit: Math.min(limit, limits.maxItemsPerResponse),
    offset,
    order,
    select,
    distinct,
    count,
    where: compileFilters(r, filters, where),
  };
}
