/** `is_a` (lists-and-filters.md §9). */
import { resourceByKind, type ResourceSpec } from '@svc/contract';
import { sql, type Sql } from '../sql';
import { bind, FALSE, TRUE } from './bind';
import { jsonType } from './json';
import { fail, fmsg } from './messages';
import type { Column } from './types';

/**
 * The resources an operand names: a kind or an array of kinds, camelCase or snake_case. A
 * well-formed but unknown kind names none (and so matches nothing); other operands are a 422.
 */
export function kindsOperand(_c: Column, x: unknown, op: string): ResourceSpec[] {
  const kinds = Array.isArray(x) ? (x as unknown[]) : [x];
  const found = new Set<ResourceSpec>();
  for (const kind of kinds) {
    if (typeof kind !== 'string') fail(fmsg.operandType(jsonType(kind), op));
    const r = resourceByKind(kind);
    if (r) found.add(r);
  }
  return [...found];
}

/** A uuid (any cluster) whose infix is one of the given ones. Infixes come from the schema. */
export const uuidOfKindsRe = (rs: readonly ResourceSpec[]): string =>
  `^[0-9a-z]{5}-(${rs.map((r) => r.infix).join('|')})-[0-9a-z]{15}$`;

/**
 * On `uuid` the answer is the same for every record of the list (its kind is the resource's).
 * On any other string attribute: the value is a uuid whose infix (characters 7–11) is one of the
 * kinds'. The regex goes as a bound value like any other; NULL never matches `~`.
 */
export function isASql(c: Column, rs: ResourceSpec[]): Sql {
  if (c.name === 'uuid') return rs.includes(c.resource) ? TRUE : FALSE;
  if (rs.length === 0) return FALSE;
  return sql`${c.expr} ~ ${bind(uuidOfKindsRe(rs))}`;
}
