import { msg, type ResourceSpec } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { bindValue, raw, sql, tableOf, toQuery } from '@svc/list-engine';
import type { Db } from '../../db/db';
import { timeKey, type Row } from './row';

const MAX_NAME = 255;

async function nameTaken(tx: Db, r: ResourceSpec, owner: string, name: string, uuid: string) {
  // One writer at a time per (table, owner, name): the check and the write are then atomic.
  await tx.query(
    toQuery(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${r.type}/${owner}/${name}`}, 0))`,
    ),
  );
  // Types without trash (credentials) count every object.
  const live =
    'trash_at' in r.attributes
      ? sql`AND ("trash_at" IS NULL OR "trash_at" > ${raw('statement_timestamp()')})`
      : sql``;
  const { rows } = await tx.query(
    toQuery(
      sql`SELECT 1 FROM ${tableOf(r)} WHERE "owner_uuid" = ${owner} AND "name" = ${name}
          AND "uuid" <> ${uuid} ${live} LIMIT 1`,
    ),
  );
  return rows.length > 0;
}

const isTrashed = (row: Row, now: string): boolean =>
  typeof row['trash_at'] === 'string' && timeKey(row['trash_at']) <= timeKey(now);

/** `A Project` → `A Project (0123456789abcde)`: the first 237 characters and the uuid's tail. */
export const uniqueVariant = (name: string, uuid: string): string =>
  `${name.slice(0, 237)} (${uuid.slice(-15)})`;

/**
 * Unique names per owner among non-trashed objects (requests-and-errors.md §12). With
 * `ensureUnique`, a clash renames the object once; a second clash is the usual 422.
 */
export async function enforceUniqueName(
  tx: Db,
  r: ResourceSpec,
  row: Row,
  now: string,
  ensureUnique: boolean,
): Promise<void> {
  const name = row['name'];
  if (typeof name !== 'string' || isTrashed(row, now)) return;
  const owner = String(row['owner_uuid']);
  const uuid = String(row['uuid']);
  if (!(await nameTaken(tx, r, owner, name, uuid))) return;
  const clash = () => new UnprocessableError(msg.duplicateName(r.singular, name, owner));
  if (!ensureUnique) throw clash();
  row['name'] = uniqueVariant(name, uuid);
  if (
    String(row['name']).length > MAX_NAME ||
    (await nameTaken(tx, r, owner, String(row['name']), uuid))
  ) {
    throw clash();
  }
}

/**
 * enforceUniqueName with `ensureUnique` for several new rows at once: the names' locks are taken
 * in one statement (in key order) and checked in one query; only rows that clash go through the
 * one-by-one rename. Rows named alike within the batch are renamed too.
 */
export async function enforceUniqueNames(
  tx: Db,
  r: ResourceSpec,
  rows: readonly Row[],
  now: string,
): Promise<void> {
  const named = rows.filter((row) => typeof row['name'] === 'string' && !isTrashed(row, now));
  if (named.length === 0) return;
  const keys = [
    ...new Set(named.map((row) => `${r.type}/${String(row['owner_uuid'])}/${String(row['name'])}`)),
  ].sort();
  await tx.query(
    toQuery(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
            FROM (SELECT k FROM unnest(${bindValue(keys)}::text[]) AS k ORDER BY k OFFSET 0) AS ordered`,
    ),
  );
  const { rows: taken } = await tx.query<{ owner_uuid: string; name: string }>(
    toQuery(
      sql`SELECT "owner_uuid", "name" FROM ${tableOf(r)}
           WHERE "owner_uuid" = ANY(${bindValue(named.map((row) => String(row['owner_uuid'])))}::text[])
             AND "name" = ANY(${bindValue(named.map((row) => String(row['name'])))}::text[])
             AND ("trash_at" IS NULL OR "trash_at" > ${raw('statement_timestamp()')})`,
    ),
  );
  const batch = new Set<string>();
  for (const row of named) {
    const key = `${String(row['owner_uuid'])}/${String(row['name'])}`;
    if (batch.has(key)) row['name'] = uniqueVariant(String(row['name']), String(row['uuid']));
    else if (taken.some((t) => `${t.owner_uuid}/${t.name}` === key)) {
      await enforceUniqueName(tx, r, row, now, true);
    }
    batch.add(`${String(row['owner_uuid'])}/${String(row['name'])}`);
  }
}
