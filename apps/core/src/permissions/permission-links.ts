import { builtInUuids } from '@svc/contract';
import { makeUuid } from '@svc/ids';
import type { Call } from '../call';
import { statement, type Db } from '../db/db';
import { refreshPermissions } from './materialize';

export type PermissionName = 'can_read' | 'can_write' | 'can_manage' | 'can_login';

/**
 * Makes sure a permission link tail → head with this name exists (owned by the system user),
 * as the server itself needs them (all-users membership, role creators).
 */
export async function ensurePermissionLink(
  call: Call,
  tx: Db,
  tail: string,
  head: string,
  name: PermissionName,
  now: string,
): Promise<void> {
  const { rows } = await tx.query(
    statement(
      `SELECT 1 FROM links WHERE link_class = 'permission' AND tail_uuid = $1 AND head_uuid = $2 AND name = $3`,
      [tail, head, name],
    ),
  );
  if (rows.length > 0) return;
  const c = call.cluster.ClusterID;
  await insertLink(call, tx, c, tail, head, name, now);
  await refreshPermissions(tx, c, [head], [tail]);
}

async function insertLink(
  call: Call,
  tx: Db,
  c: string,
  tail: string,
  head: string,
  name: PermissionName,
  now: string,
) {
  await tx.query(
    statement(
      `INSERT INTO links (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, link_class, name, tail_uuid, head_uuid, properties)
       VALUES ($1, $2, $3::text::timestamptz, $3::text::timestamptz, $4, 'permission', $5, $6, $7, '{}'::jsonb)`,
      [makeUuid(c, 'o0j2j'), builtInUuids(c).systemUser, now, call.caller.uuid, name, tail, head],
    ),
  );
}

/** Deletes the permission links tail → head (all names, or the given one). */
export async function deletePermissionLinks(
  tx: Db,
  clusterId: string,
  tail: string,
  head: string,
  name?: PermissionName,
): Promise<void> {
  await tx.query(
    statement(
      `DELETE FROM links WHERE link_class = 'permission' AND tail_uuid = $1 AND head_uuid = $2 AND ($3::text IS NULL OR name = $3)`,
      [tail, head, name ?? null],
    ),
  );
  await refreshPermissions(tx, clusterId, [head], [tail]);
}

/**
 * Deletes every link whose head or tail is `uuid` (an object deleted for good, other-resources.md
 * §3), keeping the permission table right for the permission links among them. Objects deleted
 * for good are never groups (groups are trashed), so rows on `uuid` came from those links only
 * and go with them.
 */
export async function deleteLinksOf(tx: Db, clusterId: string, uuid: string): Promise<void> {
  const { rows } = await tx.query<{
    head_uuid: string | null;
    tail_uuid: string | null;
    link_class: string;
  }>(
    statement(
      'DELETE FROM links WHERE head_uuid = $1 OR tail_uuid = $1 RETURNING head_uuid, tail_uuid, link_class',
      [uuid],
    ),
  );
  const edges = rows.filter((r) => r.link_class === 'permission' && r.head_uuid && r.tail_uuid);
  await refreshPermissions(
    tx,
    clusterId,
    edges.map((r) => r.head_uuid!),
    edges.map((r) => r.tail_uuid!),
  );
}

/** Deletes a role's outgoing permission links (trashing a role, permissions.md §4). */
export async function deleteOutgoingPermissionLinks(
  tx: Db,
  clusterId: string,
  tail: string,
): Promise<void> {
  const { rows } = await tx.query<{ head_uuid: string }>(
    statement(
      `DELETE FROM links WHERE link_class = 'permission' AND tail_uuid = $1 RETURNING head_uuid`,
      [tail],
    ),
  );
  await refreshPermissions(
    tx,
    clusterId,
    rows.map((r) => r.head_uuid),
    [tail],
  );
}
