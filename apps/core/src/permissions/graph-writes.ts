import { builtInUuids, links } from '@svc/contract';
import { makeUuid } from '@svc/ids';
import type { Call } from '../call';
import { statement, type Db } from '../db/db';
import { refreshPermissions } from './materialize';

/**
 * The one home of writes that change the permission graph (permission links, group ownership
 * and trash): each writes, or is told what was written, and brings the materialized permission
 * table and the hidden-groups index up to date in the same transaction. Nothing else calls the
 * refresh (docs/adr/0004).
 */

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
  properties: Record<string, unknown> = {},
) {
  await tx.query(
    statement(
      `INSERT INTO links (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, link_class, name, tail_uuid, head_uuid, properties)
       VALUES ($1, $2, $3::text::timestamptz, $3::text::timestamptz, $4, 'permission', $5, $6, $7, $8::text::jsonb)`,
      [
        makeUuid(c, links.infix),
        builtInUuids(c).systemUser,
        now,
        call.caller.uuid,
        name,
        tail,
        head,
        JSON.stringify(properties),
      ],
    ),
  );
}

/**
 * Makes sure a `can_login` link from a user to a shell node with this account name exists
 * (the setup procedure, docs/api/more-resources.md §5.1); an existing one is kept as it is.
 */
export async function ensureLoginLink(
  call: Call,
  tx: Db,
  user: string,
  vm: string,
  username: string,
  now: string,
): Promise<void> {
  const { rows } = await tx.query(
    statement(
      `SELECT 1 FROM links WHERE link_class = 'permission' AND name = 'can_login'
          AND tail_uuid = $1 AND head_uuid = $2 AND properties->>'username' = $3`,
      [user, vm, username],
    ),
  );
  if (rows.length > 0) return;
  const c = call.cluster.ClusterID;
  await insertLink(call, tx, c, user, vm, 'can_login', now, { username });
  await refreshPermissions(tx, c, [vm], [user]);
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

/** A stored row (a link or a group), before or after a write. */
type StoredRow = Readonly<Record<string, unknown>>;

const endsOf = (links: readonly (StoredRow | null)[], key: 'head_uuid' | 'tail_uuid') =>
  links
    .filter((l): l is StoredRow => !!l && l['link_class'] === 'permission')
    .map((l) => l[key])
    .filter((u): u is string => typeof u === 'string' && u !== '');

/** A link was created, changed or removed (a row written by the generic methods). */
export async function linkWritten(
  tx: Db,
  clusterId: string,
  row: StoredRow | null,
  previous: StoredRow | null,
): Promise<void> {
  const heads = endsOf([row, previous], 'head_uuid');
  if (heads.length === 0) return;
  await refreshPermissions(tx, clusterId, heads, endsOf([row, previous], 'tail_uuid'));
}

/** Raises an existing level link to `name` (a second create of the same pair, permissions.md §3). */
export async function raiseLinkLevel(
  tx: Db,
  clusterId: string,
  link: { uuid: string; tail: string; head: string },
  name: PermissionName,
  by: string,
  now: string,
): Promise<void> {
  await tx.query(
    statement(
      'UPDATE links SET name = $1, modified_at = $2::text::timestamptz, modified_by_user_uuid = $3 WHERE uuid = $4',
      [name, now, by, link.uuid],
    ),
  );
  await refreshPermissions(tx, clusterId, [link.head], [link.tail]);
}

/** Deletes links by uuid (the other level links of a pair; the caller refreshes with linkWritten). */
export async function deleteLinksByUuid(tx: Db, uuids: readonly string[]): Promise<void> {
  if (uuids.length > 0)
    await tx.query(statement('DELETE FROM links WHERE uuid = ANY($1::text[])', [uuids]));
}

/**
 * A group was created, or its owner or trash_at changed: ownership is an edge of the graph.
 * What trash hides needs nothing here: the group_ancestors triggers keep the tree, and hiding
 * is read through it (the hidden_groups view).
 */
export async function groupWritten(
  tx: Db,
  clusterId: string,
  row: StoredRow,
  previous: StoredRow | null,
): Promise<void> {
  const uuid = String(row['uuid']);
  const ownerChanged = !previous || previous['owner_uuid'] !== row['owner_uuid'];
  if (ownerChanged) {
    const owners = [row['owner_uuid'], previous?.['owner_uuid']].filter(
      (o): o is string => typeof o === 'string',
    );
    await refreshPermissions(tx, clusterId, [uuid], owners);
  }
}

/** At start-up: the seeded anonymous membership is an edge like any other. */
export async function seedBuiltInPermissions(tx: Db, clusterId: string): Promise<void> {
  await refreshPermissions(tx, clusterId, [builtInUuids(clusterId).anonymousGroup]);
}
