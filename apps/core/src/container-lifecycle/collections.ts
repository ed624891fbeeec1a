import { collections } from '@svc/contract';
import { ApiError, ForbiddenError } from '@svc/errors';
import { makeUuid } from '@svc/ids';
import { join, raw, sql, toQuery } from '@svc/list-engine';
import { statement } from '../db/db';
import { isGroupUuid } from '../permissions/kinds';
import { assertNotFrozen } from '../resources/common/frozen';
import { addSeconds, type Row } from '../resources/common/row';
import { enforceUniqueNames } from '../resources/common/unique-name';
import { valueFor } from '../resources/common/write-sql';
import type { Lifecycle } from './context';

/**
 * The output and log collections a finished request gets (containers.md §10): copies of the
 * collection with the container's PDH, owned by the request's owner, never inside a frozen
 * project or one hidden by trash.
 */

/** May the server put a request's collections in this owner? */
export async function ownerTakesCollections(lc: Lifecycle, owner: string): Promise<boolean> {
  // Only projects are trashed or frozen; a user's home project never is.
  if (!isGroupUuid(owner)) return true;
  const { rows } = await lc.tx.query(
    statement(
      `SELECT 1 FROM hidden_groups WHERE group_uuid = $1 AND trash_at <= statement_timestamp()`,
      [owner],
      'owner_hidden',
    ),
  );
  if (rows.length > 0) return false;
  try {
    await assertNotFrozen(lc.tx, lc.cluster.ClusterID, owner);
    return true;
  } catch (err) {
    if (err instanceof ForbiddenError) return false;
    throw err;
  }
}

export interface CollectionCopy {
  pdh: string;
  owner: string;
  name: string;
  properties: Record<string, unknown>;
  storageClasses: unknown;
  ttlSeconds: number;
}

const COLUMNS = [
  'uuid',
  'owner_uuid',
  'created_at',
  'modified_at',
  'modified_by_user_uuid',
  'name',
  'properties',
  'manifest_text',
  'portable_data_hash',
  'file_count',
  'file_size_total',
  'storage_classes_desired',
  'trash_at',
  'delete_at',
];

/** The manifests of existing collections with these PDHs, by PDH. */
async function sources(lc: Lifecycle, pdhs: string[]): Promise<Map<string, Row>> {
  const { rows } = await lc.tx.query<Row>(
    statement(
      `SELECT DISTINCT ON (portable_data_hash) portable_data_hash, manifest_text, file_count, file_size_total
         FROM collections WHERE portable_data_hash = ANY($1::text[])`,
      [pdhs],
      'collections_by_pdhs',
    ),
  );
  return new Map(rows.map((r) => [String(r['portable_data_hash']), r]));
}

function newRow(lc: Lifecycle, copy: CollectionCopy, source: Row): Row {
  const expires = copy.ttlSeconds > 0 ? addSeconds(lc.now, copy.ttlSeconds) : null;
  return {
    ...source,
    uuid: makeUuid(lc.cluster.ClusterID, collections.infix),
    owner_uuid: copy.owner,
    created_at: lc.now,
    modified_at: lc.now,
    modified_by_user_uuid: lc.actor,
    name: copy.name,
    properties: copy.properties,
    storage_classes_desired: copy.storageClasses,
    trash_at: expires,
    delete_at: expires,
  };
}

/**
 * New collections with the manifests of existing ones with the given PDHs, saved with
 * ensure_unique_name, in one statement; the uuid of each, or null when no collection has its PDH.
 */
export async function copyCollections(
  lc: Lifecycle,
  copies: readonly CollectionCopy[],
): Promise<(string | null)[]> {
  if (copies.length === 0) return [];
  const found = await sources(
    lc,
    copies.map((c) => c.pdh),
  );
  const rows = copies.map((c) => (found.has(c.pdh) ? newRow(lc, c, found.get(c.pdh)!) : null));
  const made = rows.filter((r): r is Row => r !== null);
  if (made.length === 0) return rows.map(() => null);
  try {
    await enforceUniqueNames(lc.tx, collections, made, lc.now);
  } catch (err) {
    // A clash even with the uuid-suffixed names: keep the collections, without names.
    if (!(err instanceof ApiError)) throw err;
    for (const row of made) row['name'] = null;
  }
  const values = made.map(
    (row) =>
      sql`(${join(
        COLUMNS.map((c) => valueFor(collections, c, row[c])),
        ', ',
      )})`,
  );
  await lc.tx.query(
    toQuery(sql`INSERT INTO "collections" (${raw(COLUMNS.map((c) => `"${c}"`).join(', '))})
                VALUES ${join(values, ', ')}`),
  );
  return rows.map((r) => (r ? String(r['uuid']) : null));
}
