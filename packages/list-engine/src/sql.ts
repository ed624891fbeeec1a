import { Sql, empty, join, raw, default as sql } from 'sql-template-tag';
import { attributeOf, attributeSql, isStored, quoteIdent, type ResourceSpec } from '@svc/contract';

export { Sql, empty, join, raw, sql };

/** `{text, values}` for node-postgres and PGlite: user values only ever as `$n` parameters. */
export interface Query {
  text: string;
  values: unknown[];
}

const fold = (text: string): string => text.replace(/\s+/g, ' ').replace(/ \)/g, ')').trim();

/**
 * Folded texts by raw text: the same few statements come back on every request (the
 * visibility SQL alone is kilobytes), so each is folded once. Bounded: texts come from code,
 * but list filters combine freely.
 */
const FOLDED_MAX = 4000;
const folded = new Map<string, string>();

/** Our SQL text holds no literals, so folding white space is safe and keeps logs readable. */
export function toQuery(fragment: Sql): Query {
  const raw = fragment.text;
  let text = folded.get(raw);
  if (text === undefined) {
    text = fold(raw);
    if (folded.size < FOLDED_MAX) folded.set(raw, text);
  }
  return { text, values: fragment.values };
}

/** Any value (arrays included) as one bound parameter. */
export const bindValue = (value: unknown): Sql => new Sql(['', ''], [value as string]);

/** The table of a resource; its name comes from the schema, never from input. */
export const tableOf = (r: ResourceSpec): Sql => raw(quoteIdent(r.type));

/** SQL reading one attribute, from the schema. Throws for attributes with no SQL form. */
export function attributeExpr(r: ResourceSpec, name: string): Sql {
  const spec = attributeOf(r, name);
  const text = spec ? attributeSql(name, spec) : null;
  if (text === null) throw new Error(`${r.type}.${name} has no SQL form`);
  return raw(text);
}

/**
 * String attributes compare by code point (lists-and-filters.md §3). Text columns are created
 * with the binary "C" collation, so only computed string expressions need it spelled out.
 */
export function comparableExpr(r: ResourceSpec, name: string): Sql {
  const spec = attributeOf(r, name);
  const expr = attributeExpr(r, name);
  const isString = spec?.type === 'string' || spec?.type === 'text';
  return isString && !isStored(spec) ? sql`(${expr}) COLLATE "C"` : expr;
}
