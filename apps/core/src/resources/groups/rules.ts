import { builtInUuids, groups } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { rowColumns } from '@svc/list-engine';
import { flagOption, type Call, type Handler } from '../../call';
import { containerPrioritiesBeneath } from '../../container-lifecycle/trash';
import type { Db } from '../../db/db';
import {
  deleteOutgoingPermissionLinks,
  ensurePermissionLink,
  groupWritten,
} from '../../permissions/graph-writes';
import { crudHandlers, failIfAny } from '../common/crud';
import {
  loadPermissionFlags,
  permissionFlag,
  permissionFlagColumns,
} from '../common/permission-flags';
import type { Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { checkNoFrozenBeneath } from '../common/frozen';
import { compareTimes } from '../common/row';
import { applyTrashInput, isTrashedAt, trashRow } from '../common/trash';
import { checkFilterGroup } from './filter-group';
import { checkFreeze, checkFrozenGroupWrite } from './freeze';
import { groupPolicy, isRole } from './policy';
import { untrashHandler } from '../common/untrash';

const GROUP_CLASSES = ['project', 'filter', 'role'];
const MAX_DESCRIPTION = 524288;

function nameProblems(row: Row): string[] {
  const name = String(row['name']);
  if (isRole(row)) return [];
  const problems: string[] = [];
  if (name === '.' || name === '..') problems.push("name cannot be '.' or '..'");
  if (name.includes('/')) problems.push("name cannot contain a '/' character");
  return problems;
}

function descriptionProblems(row: Row): string[] {
  const d = row['description'];
  return typeof d === 'string' && d.length > MAX_DESCRIPTION
    ? [`description is too long (maximum is ${MAX_DESCRIPTION} characters)`]
    : [];
}

/**
 * Ownership and trash are edges of the permission graph and of the hidden-objects index:
 * keep both right in the same transaction. A trashed role loses its outgoing links.
 */
async function afterGroupWrite(
  call: Call,
  tx: Db,
  row: Row,
  previous: Row | null,
  now: string,
): Promise<void> {
  const uuid = String(row['uuid']);
  const c = call.cluster.ClusterID;
  await groupWritten(tx, c, row, previous);
  if (!previous && isRole(row) && call.caller.uuid !== builtInUuids(c).systemUser) {
    await ensurePermissionLink(call, tx, call.caller.uuid, uuid, 'can_manage', now);
  }
  if (isRole(row) && isTrashedAt(row, now) && !(previous && isTrashedAt(previous, now))) {
    await deleteOutgoingPermissionLinks(tx, c, uuid);
  }
  if (
    previous &&
    (row['trash_at'] !== previous['trash_at'] || row['owner_uuid'] !== previous['owner_uuid'])
  ) {
    await containerPrioritiesBeneath(
      { tx, cluster: call.cluster, now, actor: call.caller.uuid },
      uuid,
    );
  }
}

async function prepareCreate(ctx: WriteContext, row: Row): Promise<void> {
  const klass = ctx.input['group_class'];
  if (typeof klass !== 'string' || !GROUP_CLASSES.includes(klass)) {
    throw new UnprocessableError(
      `group_class must be one of 'project', 'role' or 'filter', was '${klass ?? ''}'`,
    );
  }
  const name = ctx.input['name'];
  if (name === undefined || name === null || name === '') row['name'] = row['uuid'];
  if (klass === 'role') row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
  applyTrashInput(ctx, null, row);
  failIfAny([...nameProblems(row), ...descriptionProblems(row)]);
  checkFilterGroup(row);
  await checkFreeze(ctx, null, row);
}

/** Taking a group out of the trash by hand after its delete_at: as untrash (groups.md §6). */
function refuseLateUntrash(ctx: WriteContext, current: Row, next: Row): void {
  const deleteAt = current['delete_at'];
  if (
    isTrashedAt(current, ctx.now) &&
    next['trash_at'] === null &&
    typeof deleteAt === 'string' &&
    compareTimes(deleteAt, ctx.now) <= 0
  ) {
    throw new UnprocessableError('delete_at time has already passed, cannot untrash');
  }
}

async function prepareUpdate(ctx: WriteContext, current: Row, next: Row): Promise<void> {
  if ('group_class' in ctx.input && ctx.input['group_class'] !== current['group_class']) {
    throw new UnprocessableError('group_class cannot be modified after record is created');
  }
  if (next['name'] === null || next['name'] === '')
    throw new UnprocessableError("name can't be blank");
  if (isRole(current)) next['owner_uuid'] = current['owner_uuid'];
  applyTrashInput(ctx, current, next);
  refuseLateUntrash(ctx, current, next);
  failIfAny([...nameProblems(next), ...descriptionProblems(next)]);
  checkFilterGroup(next);
  await checkFreeze(ctx, current, next);
}

/**
 * `async=true` answers 202 (groups.md §9). The permission update may lag by
 * API.AsyncPermissionsUpdateInterval; svc applies it before answering, which the contract allows.
 */
function answering202WhenAsync(handler: Handler): Handler {
  return async (call) => {
    const reply = await handler(call);
    return flagOption(call, 'async') ? { ...reply, status: 202 } : reply;
  };
}

export const groupRules: ResourceRules = {
  resource: groups,
  policy: groupPolicy,
  checkWrite: checkFrozenGroupWrite,
  prepareCreate,
  prepareUpdate,
  afterWrite: (ctx, row, previous) => afterGroupWrite(ctx.call, ctx.tx, row, previous, ctx.now),
  async remove(call, row, tx, now) {
    if (!isTrashedAt(row, now) && row['group_class'] === 'project') {
      await checkNoFrozenBeneath(tx, String(row['uuid']));
    }
    const trashed = await trashRow(call, groups, row, tx, now, rowColumns(groups, null, false));
    await afterGroupWrite(call, tx, trashed, row, now);
    return trashed;
  },
  renderColumns: permissionFlagColumns,
  beforeRender: loadPermissionFlags,
  computeAttribute: permissionFlag,
  get extraHandlers() {
    const common = crudHandlers(groupRules);
    return {
      create: answering202WhenAsync(common.create!),
      update: answering202WhenAsync(common.update!),
      trash: common.delete!,
      untrash: untrashHandler(groupRules),
    };
  },
};
