import { groups, builtInUuids } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { rowColumns } from '@svc/list-engine';
import { failIfAny } from '../common/crud';
import { adminPermissionFlag } from '../common/permission-flags';
import type { Row } from '../common/row';
import type { ResourceRules } from '../common/rules';
import { applyTrashInput, notTrashedScope, trashRow } from '../common/trash';

const GROUP_CLASSES = ['project', 'filter', 'role'];
const MAX_DESCRIPTION = 524288;

function nameProblems(row: Row): string[] {
  const name = String(row['name']);
  if (row['group_class'] === 'role') return [];
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

export const groupRules: ResourceRules = {
  resource: groups,
  readScope: notTrashedScope,
  async prepareCreate(ctx, row) {
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
  },
  async prepareUpdate(ctx, current, next) {
    if ('group_class' in ctx.input && ctx.input['group_class'] !== current['group_class']) {
      throw new UnprocessableError('group_class cannot be modified after record is created');
    }
    if (next['name'] === null || next['name'] === '') throw new UnprocessableError("name can't be blank");
    applyTrashInput(ctx, current, next);
    failIfAny([...nameProblems(next), ...descriptionProblems(next)]);
  },
  remove: (call, row, tx, now) => trashRow(call, groups, row, tx, now, rowColumns(groups, null, false)),
  computeAttribute: adminPermissionFlag,
};
