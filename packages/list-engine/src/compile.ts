import { quoteIdent } from '@svc/contract';
import type { ListPlan, OrderKey } from './plan';
import { comparableExpr, join, raw, sql, tableOf, toQuery, type Query, type Sql } from './sql';
import { distinctColumns, rowColumns } from './select-columns';

/** Distinct lists order by their output columns, which already carry the collation. */
const orderBy = (plan: ListPlan, keys: readonly OrderKey[], byOutputName: boolean): Sql =>
  keys.length === 0
    ? sql``
    : sql`ORDER BY ${join(
        keys.map((k) => {
          const expr = byOutputName
            ? raw(quoteIdent(k.attribute))
            : comparableExpr(plan.resource, k.attribute);
          return sql`${expr} ${raw(k.direction.toUpperCase())}`;
        }),
        ', ',
      )}`;

/** All conditions ANDed: the request's filters and whatever the caller adds (visibility). */
function whereClause(plan: ListPlan, scope: readonly Sql[]): Sql {
  const conditions = [...(plan.where ? [plan.where] : []), ...scope];
  return conditions.length === 0
    ? sql``
    : sql`WHERE ${join(
        conditions.map((c) => sql`(${c})`),
        ' AND ',
      )}`;
}

export interface CompiledList {
  items: Query;
  /** null when `count=none`. */
  count: Query | null;
}

/**
 * Compiles a plan into parameterized SQL. `scope` holds extra conditions from the caller
 * (permissions, trash visibility), compiled the same way; `extraColumns` are read with each row
 * of a non-distinct list (values the renderer needs, e.g. the caller's permission level).
 */
export function compileList(
  plan: ListPlan,
  scope: readonly Sql[] = [],
  extraColumns: readonly Sql[] = [],
): CompiledList {
  const table = tableOf(plan.resource);
  const where = whereClause(plan, scope);
  const page = sql`LIMIT ${plan.limit} OFFSET ${plan.offset}`;
  if (plan.distinct && plan.select) {
    const cols = distinctColumns(plan.resource, plan.select);
    const base = sql`SELECT DISTINCT ${cols} FROM ${table} ${where}`;
    return {
      items: toQuery(sql`${base} ${orderBy(plan, plan.order, true)} ${page}`),
      count: plan.count === 'exact' ? toQuery(sql`SELECT count(*) AS n FROM (${base}) AS d`) : null,
    };
  }
  const cols = join([rowColumns(plan.resource, plan.select, true), ...extraColumns], ', ');
  return {
    items: toQuery(
      sql`SELECT ${cols} FROM ${table} ${where} ${orderBy(plan, plan.order, false)} ${page}`,
    ),
    count:
      plan.count === 'exact' ? toQuery(sql`SELECT count(*) AS n FROM ${table} ${where}`) : null,
  };
}
