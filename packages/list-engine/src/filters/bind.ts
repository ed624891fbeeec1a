/**
 * Bound values. Every value travels as text (or an array of texts) and is cast in SQL: node-postgres
 * and PGlite then agree on how it is sent, whatever type each would infer for the parameter.
 */
import type { AttrType } from '@svc/contract';
import { join, raw, sql, type Sql } from '../sql';

export type Cast = 'text' | 'bigint' | 'float8' | 'timestamptz' | 'boolean' | 'jsonb';

/** The PostgreSQL type of an attribute's column (the storage facts of the migrations). */
export function castOf(type: AttrType): Cast {
  switch (type) {
    case 'string':
    case 'text':
      return 'text';
    case 'integer':
      return 'bigint';
    case 'float':
      return 'float8';
    case 'datetime':
      return 'timestamptz';
    case 'boolean':
      return 'boolean';
    case 'hash':
    case 'array':
      return 'jsonb';
  }
}

/** One value: `$n::text`, or `$n::text::<type>`. */
export const bind = (value: string, cast: Cast = 'text'): Sql =>
  cast === 'text' ? sql`${value}::text` : sql`${value}::text::${raw(cast)}`;

/** An array of values: `$n::text[]`, or `$n::text[]::<type>[]`. */
export function bindArray(values: readonly string[], cast: Cast = 'text'): Sql {
  // sql-template-tag passes arrays through untouched; its Value type just does not say so.
  const value = [...values] as unknown as Record<string, unknown>;
  return cast === 'text' ? sql`${value}::text[]` : sql`${value}::text[]::${raw(cast)}[]`;
}

/** A jsonb value written as JSON text. */
export const bindJson = (value: unknown): Sql => bind(JSON.stringify(value), 'jsonb');

/** `{"<key>": <value>}` as JSON text, without building an object (a `__proto__` key stays a key). */
export const objectJson = (key: string, value: unknown): string =>
  `{${JSON.stringify(key)}:${JSON.stringify(value)}}`;

export const TRUE = sql`TRUE`;
export const FALSE = sql`FALSE`;

/** ORs conditions; an empty list matches nothing. */
export function or(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return FALSE;
  if (parts.length === 1) return parts[0]!;
  return sql`(${join([...parts], ' OR ')})`;
}

export function and(parts: readonly Sql[]): Sql {
  if (parts.length === 0) return TRUE;
  if (parts.length === 1) return parts[0]!;
  return sql`(${join([...parts], ' AND ')})`;
}
