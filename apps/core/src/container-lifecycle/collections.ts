import { collections, quoteIdent } from '@svc/contract';
import { ApiError, ForbiddenError } from '@svc/errors';
import { makeUuid } from '@svc/ids';
import { raw } from '@svc/list-engine';
import { statement } from '../db/db';
import { assertNotFrozen } from '../resources/common/frozen';
import { addSeconds, type Row } from '../resources/common/row';
import { enforceUniqueName } from '../resources/common/unique-name';
import { insertStatement } from '../resources/common/write-sql';
import type { Lifecycle } from './context';

/**
 * The output and log collections a finished request gets (containers.md §10): copies of the
 * collection with the container's PDH, owned by the request's owner, never inside a frozen
 * project or one hidden by trash.
 */

/** May the server put a request's collections in this owner? */
export async function ownerTakesCollections(lc: Lifecycle, owner: string): Promise<boolean> {
  const { rows } = await lc.tx.query(
    statement(
      `SELECT 1 FROM trashed_groups WHERE group_uuid = $1 AND trash_at <= statement_timestamp()`,
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
  storageClasses?: unknown;
  ttlSeconds?: number;
}

/** A new collection with the manifest of an existing one with that PDH; null if none exists. */
export async function copyCollection(lc: Lifecycle, copy: CollectionCopy): Promise<string | null> {
  const { rows } = await lc.tx.query<Row>(
    statement(
      `SELECT manifest_text, portable_data_hash, file_count, file_size_total
         FROM collections WHERE portable_data_hash = $1 LIMIT 1`,
      [copy.pdh],
      'collection_by_pdh',
    ),
  );
  const source = rows[0];
  if (!source) return null;
  const expires =
    copy.ttlSeconds && copy.ttlSeconds > 0 ? addSeconds(lc.now, copy.ttlSeconds) : null;
  const row: Row = {
    ...source,
    uuid: makeUuid(lc.cluster.ClusterID, collections.infix),
    owner_uuid: copy.owner,
    created_at: lc.now,
    modified_at: lc.now,
    modified_by_user_uuid: lc.actor,
    name: copy.name,
    properties: copy.properties,
    trash_at: expires,
    delete_at: expires,
    ...(copy.storageClasses !== undefined ? { storage_classes_desired: copy.storageClasses } : {}),
  };
  try {
    await enforceUniqueName(lc.tx, collections, row, lc.now, true);
  } catch (err) {
    // A clash even with the uuid-suffixed name: keep the collection, without a name.
    if (!(err instanceof ApiError)) throw err;
    row['name'] = null;
  }
  const { rows: made } = await lc.tx.query<{ uuid: string }>(
    insertStatement(collections, row, raw(quoteIdent('uuid'))),
  );
  return made[0]!.uuid;
}
