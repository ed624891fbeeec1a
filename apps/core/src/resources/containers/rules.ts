import { builtInUuids, containerMsg, containers } from '@svc/contract';
import { ForbiddenError } from '@svc/errors';
import { sql } from '@svc/list-engine';
import { containerOfToken } from '../../auth/container-token';
import type { Call } from '../../call';
import { statement, type Db } from '../../db/db';
import { reuseDigest, secretMountsDigest } from '../../container-lifecycle/canonical';
import {
  CONTAINER_INTERNAL_COLUMNS,
  lockContainer,
} from '../../container-lifecycle/containers-sql';
import type { Lifecycle } from '../../container-lifecycle/context';
import {
  containerEndChanges,
  containerLeftActiveState,
  FINAL_CONTAINER_STATES,
  updatePriorities,
} from '../../container-lifecycle/settle';
import { requireAdmin } from '../../permissions/admin';
import { col } from '../../permissions/caller-set';
import { requireActive } from '../../permissions/policy';
import { isReadable } from '../../permissions/readable';
import { notHiddenByOwner, ownedObjectVisible } from '../../permissions/visibility';
import { failIfAny } from '../common/crud';
import type { Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { dispatchHandlers } from './dispatch';
import {
  CONTAINER_STATES,
  changedFields,
  OWN_TOKEN_FIELDS,
  runtimeStatusProblems,
  updateProblems,
} from './state-machine';

/**
 * Containers (containers.md §9): readable by admins, by readers of a request that points at
 * one, and by the container's own token; changed by admins through the per-state rules, by the
 * container's own token for its progress and output fields, and by the dispatch endpoints (§12).
 */

function containerVisible(call: Call) {
  const own = sql`(${col('containers', 'auth_uuid')} = ${call.caller.identity.tokenUuid ?? ''}
                   AND ${col('containers', 'state')} IN ('Locked', 'Running'))`;
  return sql`(${own} OR EXISTS (SELECT 1 FROM container_requests
                      WHERE container_requests.container_uuid = ${col('containers', 'uuid')}
                        AND ${ownedObjectVisible(call.caller.uuid, 'container_requests')}
                        AND ${notHiddenByOwner('container_requests')}))`;
}

/** The container's own token changes only its own fields (progress, output), only while Running. */
async function requireOwnTokenChange(call: Call, tx: Db, row: Row, attrs: Row): Promise<void> {
  const own = (await containerOfToken(tx, call.caller.identity.tokenUuid)) === row['uuid'];
  const onlyOwnFields = changedFields(row, attrs).every((f) => OWN_TOKEN_FIELDS.includes(f));
  const sameState = attrs['state'] === undefined || attrs['state'] === row['state'];
  if (!own || row['state'] !== 'Running' || !onlyOwnFields || !sameState)
    throw new ForbiddenError();
}

/** `log` and `output` name collections the caller can read (§9). */
async function collectionProblems(call: Call, tx: Db, current: Row, next: Row): Promise<string[]> {
  const problems: string[] = [];
  for (const field of ['log', 'output']) {
    const pdh = next[field];
    if (typeof pdh !== 'string' || pdh === current[field]) continue;
    const { rows } = await tx.query<{ uuid: string }>(
      statement(
        'SELECT uuid FROM collections WHERE portable_data_hash = $1 LIMIT 20',
        [pdh],
        'collections_by_pdh',
      ),
    );
    let readable = false;
    for (const r of rows) if (!readable) readable = await isReadable(tx, call, r.uuid);
    if (!readable) problems.push(containerMsg.collectionMustExist(field));
  }
  return problems;
}

const BEFORE = 'containerBeforeUpdate';

const lifecycleOf = (ctx: WriteContext): Lifecycle => ({
  tx: ctx.tx,
  cluster: ctx.call.cluster,
  now: ctx.now,
  actor: ctx.call.caller.uuid,
});

async function prepareUpdate(ctx: WriteContext, current: Row, next: Row): Promise<void> {
  // The whole stored row, secrets and digests included: a retry copies it (§10).
  const stored = (await lockContainer(lifecycleOf(ctx), String(current['uuid'])))!;
  failIfAny(updateProblems(stored, next, ctx.input));
  failIfAny(await collectionProblems(ctx.call, ctx.tx, current, next));
  const from = String(current['state']);
  const to = String(next['state']);
  ctx.call.locals[BEFORE] = stored;
  if (from === to) return;
  if (to === 'Running') next['started_at'] = ctx.now;
  if (FINAL_CONTAINER_STATES.includes(to)) Object.assign(next, containerEndChanges(ctx.now));
}

async function afterWrite(ctx: WriteContext, row: Row, previous: Row | null): Promise<void> {
  if (previous === null || previous['state'] === row['state']) return;
  const lc: Lifecycle = {
    tx: ctx.tx,
    cluster: ctx.call.cluster,
    now: ctx.now,
    actor: ctx.call.caller.uuid,
  };
  await containerLeftActiveState(lc, ctx.call.locals[BEFORE] as Row, row);
  await updatePriorities(lc, [String(row['uuid'])]);
}

/** Admins may create containers directly; they get the digests selection compares (§6). */
async function prepareCreate(ctx: WriteContext, row: Row): Promise<void> {
  row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
  const problems = CONTAINER_STATES.includes(row['state'] as never)
    ? runtimeStatusProblems(row['runtime_status'])
    : [containerMsg.containerStateOneOf()];
  failIfAny(problems);
  row['secret_mounts_md5'] = secretMountsDigest(row['secret_mounts']);
  row['reuse_digest'] = reuseDigest(row as never);
}

export const containerRules: ResourceRules = {
  resource: containers,
  internalColumns: CONTAINER_INTERNAL_COLUMNS,
  policy: {
    visible: (call) => (call.caller.isAdmin ? [] : [containerVisible(call)]),
    async create(call) {
      requireActive(call);
      requireAdmin(call);
    },
    async write(call, tx, row, attrs, op) {
      requireActive(call);
      if (call.caller.isAdmin) return;
      if (op === 'delete' || attrs === null) throw new ForbiddenError();
      await requireOwnTokenChange(call, tx, row, attrs);
    },
  },
  prepareCreate,
  async prepareUpdate(ctx, current, next) {
    next['owner_uuid'] = current['owner_uuid'];
    await prepareUpdate(ctx, current, next);
  },
  afterWrite,
  get extraHandlers() {
    return dispatchHandlers(containerRules);
  },
};
