/** Attributes as filters see them: only public ones with an SQL form (§15), names from the schema. */
import { attributeSql, isStored, quoteIdent, type ResourceSpec } from '@svc/contract';
import { raw, sql, type Sql } from '../sql';
import type { Column } from './types';

/**
 * The SQL reading an attribute. Computed string attributes get the binary collation that text
 * columns have by definition, so strings compare by code point whichever way they are stored.
 */
function columnExpr(r: ResourceSpec, name: string, text: string): Sql {
  const a = r.attributes[name]!;
  if (isStored(a)) return raw(quoteIdent(name));
  return a.type === 'string' || a.type === 'text'
    ? sql`(${raw(text)}) COLLATE "C"`
    : sql`(${raw(text)})`;
}

/**
 * A filterable attribute, or null: unknown (an own property only, so `constructor` is no
 * attribute), secret, or computed without SQL.
 */
export function columnOf(r: ResourceSpec, name: string): Column | null {
  if (!Object.hasOwn(r.attributes, name)) return null;
  const a = r.attributes[name]!;
  const text = attributeSql(name, a);
  if (text === null) return null;
  return { resource: r, name, type: a.type, expr: columnExpr(r, name, text) };
}

/** Every filterable string and text attribute (what `any` applies to, §10). */
export const stringColumns = (r: ResourceSpec): Column[] =>
  Object.keys(r.attributes)
    .map((name) => columnOf(r, name))
    .filter((c): c is Column => c !== null && (c.type === 'string' || c.type === 'text'));
