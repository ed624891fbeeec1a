/**
 * Text search: `["any", "like"|"ilike", "%<text>%"]` (lists-and-filters.md §10).
 *
 * The condition is `<search expression> ILIKE p AND (<attr1> ILIKE p OR <attr2> ILIKE p ...)`.
 * The first part is what the trigram (GIN) index of migration 20261123010000_filter_indexes is
 * built on, so the planner can use it; the second makes the answer exact: the concatenation could
 * also match across the boundary of two attributes, and the contract wants one attribute to
 * contain the text. Both parts see strings under the binary collation (ASCII case folding).
 */
import { quoteIdent, searchableAttributes, type ResourceSpec } from '@svc/contract';
import { raw, sql, type Sql } from '../sql';
import { and, bind, or } from './bind';
import { likePattern } from './column-ops';
import { columnOf } from './columns';
import type { Column } from './types';

const isJson = (c: Column): boolean => c.type === 'hash' || c.type === 'array';

const searchColumns = (r: ResourceSpec): Column[] =>
  searchableAttributes(r)
    .map((name) => columnOf(r, name))
    .filter((c): c is Column => c !== null);

/**
 * The concatenated text of the searchable attributes, e.g. for groups
 * `coalesce("name", '') || ' ' || coalesce("group_class", '') || ...`. Only immutable
 * functions (coalesce, ||, jsonb's text output), so PostgreSQL accepts it as an index expression.
 * The migration repeats it verbatim; a unit test keeps the two identical.
 */
export function searchExpression(r: ResourceSpec): string | null {
  const parts = searchColumns(r).map((c) => {
    const col = quoteIdent(c.name);
    return `coalesce(${isJson(c) ? `${col}::text` : col}, '')`;
  });
  return parts.length > 0 ? parts.join(" || ' ' || ") : null;
}

/** `%…%`: the operands that make `any` a text search rather than a per-attribute LIKE. */
export const isSearchPattern = (x: unknown): x is string =>
  typeof x === 'string' && x.length >= 2 && x.startsWith('%') && x.endsWith('%');

/**
 * The concatenation is a safe pre-filter only when the pattern ends in a real wildcard: `%a\%`
 * (ending in a literal `%`) anchors at an attribute's end, which the concatenation moves.
 */
const endsInWildcard = (p: string): boolean => /\\*%$/.exec(p)![0].length % 2 === 1;

/** Arrays and hashes are searched in their JSON text (jsonb's canonical output). */
const textOf = (c: Column): Sql => (isJson(c) ? sql`(${c.expr}::text) COLLATE "C"` : c.expr);

export function searchSql(r: ResourceSpec, op: 'like' | 'ilike', pattern: string): Sql {
  const p = likePattern(pattern);
  const like = raw(op === 'ilike' ? 'ILIKE' : 'LIKE');
  const exact = or(searchColumns(r).map((c) => sql`${textOf(c)} ${like} ${bind(p)}`));
  const expression = searchExpression(r);
  if (expression === null || !endsInWildcard(p)) return exact;
  return and([sql`(${raw(expression)}) ${like} ${bind(p)}`, exact]);
}
