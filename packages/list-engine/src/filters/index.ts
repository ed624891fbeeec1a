/**
 * The list filter language (lists-and-filters.md §5–§15) → one SQL condition.
 *
 * A pipeline of pure steps: parse each element's shape (parse.ts, where.ts) → validate it against
 * the resource's attributes and the operator table, converting operands (validate.ts) → compile
 * (emit.ts). Client values reach the SQL only as bound parameters; identifiers only from the schema.
 */
import type { ResourceSpec } from '@svc/contract';
import type { Sql } from '../sql';
import { and } from './bind';
import { toSql } from './emit';
import { fail, fmsg } from './messages';
import { parseFilters } from './parse';
import { validateElement } from './validate';
import { parseWhere } from './where';

/**
 * PostgreSQL takes at most 65535 parameters per statement; the filters keep to half of that so
 * the caller's own conditions (permissions, paging) always fit.
 */
export const MAX_FILTER_VALUES = 32_000;

/** `filters` and `where` → one SQL condition (all must hold), or null when there is none. */
export function compileFilters(
  r: ResourceSpec,
  filters: readonly unknown[] | undefined,
  where: Record<string, unknown> | undefined,
): Sql | null {
  const parsed = [...parseFilters(filters), ...parseWhere(r, where)];
  if (parsed.length === 0) return null;
  const condition = and(parsed.map((p) => toSql(validateElement(r, p))));
  if (condition.values.length > MAX_FILTER_VALUES) fail(fmsg.tooManyValues(MAX_FILTER_VALUES));
  return condition;
}

export { searchExpression } from './search';
