import type { Logger } from 'pino';
import { builtInUuids } from '@svc/contract';
import type { ClusterConfig } from '@svc/config';
import { containerPrioritiesBeneath } from '../container-lifecycle/trash';
import { updatePriorities } from '../container-lifecycle/settle';
import { statement, type Db } from '../db/db';
import { deleteOutgoingPermissionLinks } from '../permissions/graph-writes';
import { refreshPermissions } from '../permissions/materialize';

export interface TrashSweepDeps {
  db: Db;
  cluster: Readonly<ClusterConfig>;
  /** The sweep's clock (tests move it). */
  now: () => number;
  log?: Logger;
}

export interface TrashSweepCounts {
  /** Groups whose future trash_at passed, and whose trash effects were applied. */
  applied: number;
  /** Groups past delete_at deleted for good, with everything they owned. */
  deleted: number;
  /** Objects of other types deleted with them. */
  objects: number;
  /** Token records past expires_at, deleted. */
  tokens: number;
  /** Credentials past expires_at whose sealed secret was erased. */
  secrets: number;
}

/** Canonical microsecond timestamps, as the rest of the core writes them. */
const canonical = (ms: number): string => `${new Date(ms).toISOString().slice(0, 23)}000Z`;

/**
 * A trash_at set in the future that has now passed: what trashing does at once (a role's outgoing
 * links go, container priorities beneath change) happens now, once (groups.md §6). A group
 * trashed by a request has trash_at = modified_at and had its effects then; a swept one gets
 * modified_at = trash_at, when the change took effect, so it is applied once.
 */
async function applyPassedTrash(deps: TrashSweepDeps, now: string): Promise<number> {
  const { db, cluster } = deps;
  const c = cluster.ClusterID;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ uuid: string; group_class: string }>(
      statement(
        `UPDATE groups SET modified_at = trash_at
          WHERE trash_at IS NOT NULL AND trash_at <= $1::timestamptz AND trash_at > modified_at
          RETURNING uuid, group_class`,
        [now],
        'sweep_passed_trash',
      ),
    );
    const lc = { tx, cluster, now, actor: builtInUuids(c).systemUser };
    for (const g of rows) {
      if (g.group_class === 'role') await deleteOutgoingPermissionLinks(tx, c, g.uuid);
      await containerPrioritiesBeneath(lc, g.uuid);
    }
    return rows.length;
  });
}

/** Groups due for deletion whose owner is not due itself (the owner's deletion takes them). */
const DUE = `
SELECT g.uuid FROM groups g
 WHERE g.delete_at IS NOT NULL AND g.delete_at <= $1::timestamptz
   AND NOT EXISTS (SELECT 1 FROM groups o WHERE o.uuid = g.owner_uuid
                    AND o.delete_at IS NOT NULL AND o.delete_at <= $1::timestamptz)
 ORDER BY g.delete_at, g.uuid LIMIT 100`;

/**
 * Deletes one group and everything it owns at any depth, frozen or not, set-based: Committed
 * requests get priority 0 first (their containers' priorities follow), then requests,
 * workflows, collections, the links to, from or owned by anything deleted, and the groups; the
 * permission table loses their rows and is refreshed below the heads of removed links.
 */
async function deleteGroupForGood(deps: TrashSweepDeps, root: string, now: string) {
  const { db, cluster } = deps;
  const c = cluster.ClusterID;
  return db.transaction(async (tx) => {
    const { rows: tree } = await tx.query<{ uuids: string[] }>(
      statement(
        `SELECT coalesce(array_agg(a.group_uuid), '{}') AS uuids
           FROM group_ancestors a WHERE a.ancestor_uuid = $1`,
        [root],
        'sweep_subtree',
      ),
    );
    const groups = tree[0]?.uuids ?? [];
    if (groups.length === 0) return 0;
    const { rows: committed } = await tx.query<{ container_uuid: string | null }>(
      statement(
        `UPDATE container_requests SET priority = 0, modified_at = $2::timestamptz
          WHERE owner_uuid = ANY($1::text[]) AND state = 'Committed'
          RETURNING container_uuid`,
        [groups, now],
      ),
    );
    const removed: string[] = [];
    for (const table of ['container_requests', 'workflows', 'collections']) {
      const { rows } = await tx.query<{ uuid: string }>(
        statement(`DELETE FROM ${table} WHERE owner_uuid = ANY($1::text[]) RETURNING uuid`, [
          groups,
        ]),
      );
      removed.push(...rows.map((r) => r.uuid));
    }
    const lc = { tx, cluster, now, actor: builtInUuids(c).systemUser };
    await updatePriorities(
      lc,
      committed.map((r) => r.container_uuid).filter((u): u is string => !!u),
    );
    const gone = [...groups, ...removed];
    const { rows: links } = await tx.query<{ head_uuid: string | null; link_class: string }>(
      statement(
        `DELETE FROM links WHERE head_uuid = ANY($1::text[]) OR tail_uuid = ANY($1::text[])
            OR owner_uuid = ANY($1::text[])
         RETURNING head_uuid, link_class`,
        [gone],
      ),
    );
    await tx.query(statement('DELETE FROM groups WHERE uuid = ANY($1::text[])', [groups]));
    await tx.query(
      statement('DELETE FROM materialized_permissions WHERE target_uuid = ANY($1::text[])', [gone]),
    );
    const goneSet = new Set(gone);
    const heads = links
      .filter((l) => l.link_class === 'permission' && l.head_uuid && !goneSet.has(l.head_uuid))
      .map((l) => l.head_uuid!);
    await refreshPermissions(tx, c, heads);
    return removed.length;
  });
}

/** Expired tokens (already refused) go; expired credentials lose their secret for good. */
async function sweepExpired(deps: TrashSweepDeps, now: string) {
  const tokens = await deps.db.query(
    statement(
      `DELETE FROM api_client_authorizations WHERE expires_at IS NOT NULL AND expires_at <= $1::timestamptz`,
      [now],
      'sweep_expired_tokens',
    ),
  );
  const secrets = await deps.db.query(
    statement(
      `UPDATE credentials SET secret_ciphertext = NULL
        WHERE secret_ciphertext IS NOT NULL AND expires_at <= $1::timestamptz`,
      [now],
      'sweep_expired_secrets',
    ),
  );
  return { tokens: tokens.rowCount, secrets: secrets.rowCount };
}

/**
 * One pass of the sweep (groups.md §6, docs/api/more-resources.md §12): future trash that passed,
 * deletion past delete_at, then expired tokens and credential secrets.
 */
export async function runTrashSweep(deps: TrashSweepDeps): Promise<TrashSweepCounts> {
  const now = canonical(deps.now());
  const applied = await applyPassedTrash(deps, now);
  let deleted = 0;
  let objects = 0;
  for (;;) {
    const { rows } = await deps.db.query<{ uuid: string }>(statement(DUE, [now], 'sweep_due'));
    if (rows.length === 0) break;
    for (const { uuid } of rows) {
      objects += await deleteGroupForGood(deps, uuid, now);
      deleted += 1;
    }
  }
  return { applied, deleted, objects, ...(await sweepExpired(deps, now)) };
}
