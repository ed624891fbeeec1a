import { builtInUuids, containers, quoteIdent } from '@svc/contract';
import { makeUuid } from '@svc/ids';
import { raw } from '@svc/list-engine';
import { statement } from '../db/db';
import type { Row } from '../resources/common/row';
import { insertStatement, storedColumns, updateStatement } from '../resources/common/write-sql';
import type { Lifecycle } from './context';

/** Columns of a containers row that are not attributes (never rendered). */
export const CONTAINER_INTERNAL_COLUMNS = ['secret_mounts_md5', 'reuse_digest'] as const;

/** Every column, secrets and internal ones included: what the server's own rules read. */
const ALL_COLUMNS = raw(
  [...storedColumns(containers), ...CONTAINER_INTERNAL_COLUMNS].map(quoteIdent).join(', '),
);

/** A container row with its secrets, locked for this transaction; null if there is none. */
export async function lockContainer(lc: Lifecycle, uuid: string): Promise<Row | null> {
  const { rows } = await lc.tx.query<Row>(
    statement(
      `SELECT ${ALL_COLUMNS.text} FROM containers WHERE uuid = $1 FOR UPDATE`,
      [uuid],
      'container_lock_row',
    ),
  );
  return rows[0] ?? null;
}

export async function updateContainer(lc: Lifecycle, uuid: string, changes: Row): Promise<Row> {
  const { rows } = await lc.tx.query<Row>(
    updateStatement(
      containers,
      uuid,
      { ...changes, modified_at: lc.now, modified_by_user_uuid: lc.actor },
      ALL_COLUMNS,
    ),
  );
  return rows[0]!;
}

/** The attributes a new container takes from the request or container it is made for. */
export const COPIED_ATTRIBUTES = [
  'command',
  'cwd',
  'environment',
  'output_path',
  'container_image',
  'mounts',
  'runtime_constraints',
  'scheduling_parameters',
  'runtime_user_uuid',
  'runtime_auth_scopes',
  'output_storage_classes',
  'secret_mounts',
  'runtime_token',
  'secret_mounts_md5',
  'reuse_digest',
] as const;

/** A new Queued container owned by the system user (containers.md §6, §10). */
export async function insertContainer(lc: Lifecycle, attrs: Row): Promise<Row> {
  const row: Row = {
    uuid: makeUuid(lc.cluster.ClusterID, containers.infix),
    owner_uuid: builtInUuids(lc.cluster.ClusterID).systemUser,
    created_at: lc.now,
    modified_at: lc.now,
    modified_by_user_uuid: lc.actor,
    state: 'Queued',
    priority: 0,
  };
  for (const name of COPIED_ATTRIBUTES) if (attrs[name] !== undefined) row[name] = attrs[name];
  const { rows } = await lc.tx.query<Row>(
    insertStatement(containers, row, ALL_COLUMNS, CONTAINER_INTERNAL_COLUMNS),
  );
  return rows[0]!;
}
