import { containerRequests, msg, type Attributes } from '@svc/contract';
import { rowColumns } from '@svc/list-engine';
import { containerOfToken } from '../../auth/container-token';
import { statement, type Db } from '../../db/db';
import type { Lifecycle } from '../../container-lifecycle/context';
import { FINAL_SCRUB } from '../../container-lifecycle/finalize';
import { updatePriorities } from '../../container-lifecycle/settle';
import { ownedPolicy } from '../../permissions/policies';
import { failIfAny } from '../common/crud';
import { nowCanonical, type Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { selectByUuid } from '../common/write-sql';
import { commit } from './commit';
import {
  RUNTIME_CONSTRAINTS,
  SCHEDULING_PARAMETERS,
  hashProblems,
  withDefaults,
} from './constraints';
import { mountsProblems, outputPathProblems } from './mounts';
import { runtimeTokenUser } from './runtime-user';
import {
  alwaysProblems,
  forbiddenChanges,
  isChange,
  transitionProblem,
  REQUEST_STATES,
} from './state-machine';

/**
 * Container requests (containers.md §1–§8): validation, the state machine, commit and reuse;
 * priorities and everything that follows from them are kept right in the same transaction.
 */

const hash = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const HASHES = [RUNTIME_CONSTRAINTS, SCHEDULING_PARAMETERS];

/** The rules of §2 and §4 that hold whenever the fields they name are set. */
function setProblems(row: Row, input: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  if ('mounts' in input || 'secret_mounts' in input) {
    problems.push(...mountsProblems(hash(row['mounts']), hash(row['secret_mounts'])));
  }
  if (('mounts' in input || 'output_path' in input) && row['output_path'] != null) {
    problems.push(...outputPathProblems(hash(row['mounts']), row['output_path']));
  }
  for (const spec of HASHES) {
    if (spec.field in input) problems.push(...hashProblems(spec, hash(input[spec.field])));
  }
  return problems;
}

/** Stored runtime_constraints and scheduling_parameters carry every default (§4). */
function fillDefaults(row: Row): void {
  for (const spec of HASHES) row[spec.field] = withDefaults(spec, hash(row[spec.field]));
}

/** The secrets are never selected with the rest of a row: read them when a rule needs them. */
async function storedSecrets(tx: Db, uuid: string): Promise<Row> {
  const { rows } = await tx.query<Row>(
    statement(
      'SELECT secret_mounts, runtime_token FROM container_requests WHERE uuid = $1',
      [uuid],
      'request_secrets',
    ),
  );
  return rows[0] ?? {};
}

/** A request made with a container's own token is that container's child (§7, §12). */
async function parentOf(ctx: WriteContext): Promise<{ uuid: string; priority: number } | null> {
  const parent = await containerOfToken(ctx.tx, ctx.call.caller.identity.tokenUuid);
  if (parent === null) return null;
  const { rows } = await ctx.tx.query<{ p: number | null }>(
    statement(
      `SELECT max(priority) AS p FROM container_requests WHERE container_uuid = $1 AND state = 'Committed'`,
      [parent],
      'parent_priority',
    ),
  );
  return { uuid: parent, priority: Number(rows[0]?.p ?? 0) };
}

async function checkRuntimeToken(ctx: WriteContext, row: Row, stored: Row): Promise<void> {
  const token = row['runtime_token'];
  if (typeof token === 'string' && isChange('runtime_token', stored['runtime_token'], token)) {
    await runtimeTokenUser(ctx.call, ctx.tx, token);
  }
}

function stateProblems(from: string, row: Row): string[] {
  const to = String(row['state']);
  const problem = REQUEST_STATES.includes(to as never) ? transitionProblem(from, to) : null;
  return problem ? [problem] : [];
}

async function prepareCreate(ctx: WriteContext, row: Row): Promise<void> {
  const { call, input } = ctx;
  row['container_count_max'] =
    input['container_count_max'] ?? call.cluster.Containers.MaxRetryAttempts;
  const parent = await parentOf(ctx);
  const baseline: Row = { requesting_container_uuid: parent?.uuid ?? null };
  for (const [name, spec] of Object.entries(containerRequests.attributes as Attributes)) {
    if (spec.default !== undefined && !(name in baseline)) baseline[name] = spec.default;
  }
  failIfAny([
    ...forbiddenChanges('Uncommitted', baseline, input, call.caller.isAdmin),
    ...stateProblems('Uncommitted', row),
    ...alwaysProblems(row),
    ...setProblems(row, input),
  ]);
  row['requesting_container_uuid'] = parent?.uuid ?? null;
  if (parent) row['priority'] = parent.priority;
  fillDefaults(row);
  await checkRuntimeToken(ctx, row, {});
  if (row['state'] === 'Committed') await commit(ctx, row, 0);
}

/** Fields sent back unchanged (§5) keep their stored form. */
function keepUnchanged(input: Readonly<Record<string, unknown>>, stored: Row, next: Row): void {
  for (const field of Object.keys(input)) {
    if (field in stored && !isChange(field, stored[field], next[field]))
      next[field] = stored[field];
  }
}

async function prepareUpdate(ctx: WriteContext, current: Row, next: Row): Promise<void> {
  const { call, input } = ctx;
  // Rows are read without their secrets; the rules need them, and an unchanged secret must
  // not count as a change (current is the stored row the generic update compares with).
  const secrets = await storedSecrets(ctx.tx, String(current['uuid']));
  Object.assign(current, secrets);
  const stored = { ...current };
  for (const secret of ['secret_mounts', 'runtime_token']) {
    if (!(secret in input)) next[secret] = stored[secret];
  }
  const from = String(current['state']);
  failIfAny([
    ...forbiddenChanges(from, stored, input, call.caller.isAdmin),
    ...stateProblems(from, next),
  ]);
  for (const spec of HASHES)
    if (spec.field in input) next[spec.field] = withDefaults(spec, hash(next[spec.field]));
  keepUnchanged(input, stored, next);
  failIfAny([...alwaysProblems(next), ...setProblems(next, input)]);
  await checkRuntimeToken(ctx, next, stored);
  await checkAssignedContainer(ctx, current, next);
  const to = String(next['state']);
  const count = Number(current['container_count'] ?? 0);
  if (from === 'Uncommitted' && to === 'Committed') await commit(ctx, next, count);
  else if (
    from === 'Committed' &&
    to === 'Committed' &&
    'container_uuid' in input &&
    next['container_uuid'] === null &&
    current['container_uuid'] !== null
  ) {
    await commit(ctx, next, count);
  } else if (from === 'Committed' && to === 'Final') Object.assign(next, FINAL_SCRUB);
}

/** An admin may point a Committed request at any existing container (§1). */
async function checkAssignedContainer(ctx: WriteContext, current: Row, next: Row): Promise<void> {
  const uuid = next['container_uuid'];
  if (typeof uuid !== 'string' || uuid === current['container_uuid']) return;
  const { rows } = await ctx.tx.query(
    statement('SELECT 1 FROM containers WHERE uuid = $1', [uuid], 'container_exists'),
  );
  failIfAny(rows.length > 0 ? [] : [msg.referenceNotFound('container_uuid', uuid)]);
}

const lifecycleOf = (ctx: WriteContext): Lifecycle => ({
  tx: ctx.tx,
  cluster: ctx.call.cluster,
  now: ctx.now,
  actor: ctx.call.caller.uuid,
});

/** Containers whose priority this write may change (§7): only Committed requests count. */
function touchedContainers(row: Row, previous: Row | null): string[] {
  const committed = row['state'] === 'Committed' || previous?.['state'] === 'Committed';
  if (!committed) return [];
  if (previous === null) return [String(row['container_uuid'] ?? '')];
  const moved = ['state', 'priority', 'container_uuid'].some((f) => row[f] !== previous[f]);
  return moved
    ? [String(previous['container_uuid'] ?? ''), String(row['container_uuid'] ?? '')]
    : [];
}

async function afterWriteRow(ctx: WriteContext, row: Row, previous: Row | null): Promise<Row> {
  const touched = touchedContainers(row, previous);
  if (!(await updatePriorities(lifecycleOf(ctx), touched))) return row;
  // A Queued container was ended, which may have finalized this very request.
  const { rows } = await ctx.tx.query<Row>(
    selectByUuid(
      containerRequests,
      rowColumns(containerRequests, null, false),
      String(row['uuid']),
      [],
      false,
    ),
  );
  return rows[0] ?? row;
}

export const containerRequestRules: ResourceRules = {
  resource: containerRequests,
  // container_uuid is set by commit, or checked above when an admin sets it.
  ownReferenceRules: ['container_uuid'],
  policy: ownedPolicy('container_requests'),
  prepareCreate,
  prepareUpdate,
  afterWriteRow,
  async afterRemove(call, row, tx) {
    const lc: Lifecycle = {
      tx,
      cluster: call.cluster,
      now: nowCanonical(),
      actor: call.caller.uuid,
    };
    await updatePriorities(lc, [String(row['container_uuid'] ?? '')]);
  },
};
