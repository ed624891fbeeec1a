import { isStored, quoteIdent, type ResourceSpec } from '@svc/contract';
import { join, raw, sql, tableOf, toQuery, type Sql } from '@svc/list-engine';
import type { Statement } from '../../db/db';
import type { Row } from './row';

/** A bound value in the column's own type; hashes and arrays travel as JSON text. */
export function valueFor(r: ResourceSpec, name: string, value: unknown): Sql {
  if (value === null || value === undefined) return sql`NULL`;
  switch (r.attributes[name]?.type) {
    case 'hash':
    case 'array':
      return sql`${JSON.stringify(value)}::text::jsonb`;
    case 'datetime':
      return sql`${String(value)}::text::timestamptz`;
    default:
      return sql`${(typeof value === 'bigint' ? value.toString() : value) as string | number | boolean}`;
  }
}

/** Stored columns of a resource, in schema order: what rows hold and writes touch. */
export const storedColumns = (r: ResourceSpec): string[] =>
  Object.entries(r.attributes)
    .filter(([, a]) => isStored(a))
    .map(([name]) => name);

export function insertStatement(
  r: ResourceSpec,
  row: Row,
  returning: Sql,
  internalColumns: readonly string[] = [],
): Statement {
  const names = [...storedColumns(r), ...internalColumns].filter((n) => n in row);
  return toQuery(
    sql`INSERT INTO ${tableOf(r)} (${join(
      names.map((n) => raw(quoteIdent(n))),
      ', ',
    )})
        VALUES (${join(
          names.map((n) => valueFor(r, n, row[n])),
          ', ',
        )})
        RETURNING ${returning}`,
  );
}

export function updateStatement(
  r: ResourceSpec,
  uuid: string,
  changes: Row,
  returning: Sql,
): Statement {
  const names = Object.keys(changes);
  const sets = names.map((n) => sql`${raw(quoteIdent(n))} = ${valueFor(r, n, changes[n])}`);
  return toQuery(
    sql`UPDATE ${tableOf(r)} SET ${join(sets, ', ')} WHERE "uuid" = ${uuid} RETURNING ${returning}`,
  );
}

export const deleteStatement = (r: ResourceSpec, uuid: string): Statement =>
  toQuery(sql`DELETE FROM ${tableOf(r)} WHERE "uuid" = ${uuid}`);

/** One row by uuid, within the given conditions; `lock` takes a row lock for a write. */
export function selectByUuid(
  r: ResourceSpec,
  columns: Sql,
  uuid: string,
  scope: readonly Sql[],
  lock: boolean,
): Statement {
  const conditions = [sql`"uuid" = ${uuid}`, ...scope.map((c) => sql`(${c})`)];
  return toQuery(
    sql`SELECT ${columns} FROM ${tableOf(r)} WHERE ${join(conditions, ' AND ')} ${raw(lock ? 'FOR UPDATE' : '')}`,
  );
}
