import { builtInUuids, isBuiltIn, users } from '@svc/contract';
import { ForbiddenError } from '@svc/errors';
import type { Call, Reply } from '../../call';
import { rowColumns, sql, toQuery } from '@svc/list-engine';
import { statement } from '../../db/db';
import { failIfAny, readObject } from '../common/crud';
import {
  loadPermissionFlags,
  permissionFlag,
  permissionFlagColumns,
} from '../common/permission-flags';
import { PUBLIC_USER_ATTRIBUTES, userPolicy } from './policy';
import type { Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { deletePermissionLinks } from '../../permissions/graph-writes';
import { queueNewUserNotice, queueProfileNotice } from './notify';
import { runSetup } from './setup';

const USERNAME_RE = /^[A-Za-z][A-Za-z0-9]*$/;
const ADMIN_ONLY_FIELDS = ['email', 'username', 'identity_url'] as const;

async function usernameProblems(ctx: WriteContext, row: Row): Promise<string[]> {
  const username = row['username'];
  if (username === null || username === undefined) return [];
  if (typeof username !== 'string' || !USERNAME_RE.test(username)) {
    return [`username '${String(username)}' is invalid`];
  }
  const { rows } = await ctx.tx.query(
    statement('SELECT 1 FROM users WHERE username = $1 AND uuid <> $2', [username, row['uuid']]),
  );
  return rows.length > 0
    ? [
        `duplicate key value violates unique constraint: user named '${username}' already exists in '${String(row['owner_uuid'])}'`,
      ]
    : [];
}

export function flagProblems(ctx: WriteContext, row: Row): string[] {
  const problems: string[] = [];
  if (row['is_admin'] === true && row['is_active'] === false)
    problems.push('Admin users cannot be inactive');
  if (
    row['uuid'] === builtInUuids(ctx.call.cluster.ClusterID).systemUser &&
    row['is_admin'] !== true
  ) {
    problems.push('cannot remove admin from the system user');
  }
  return problems;
}

/** Non-admins: their own names and prefs only; is_active/is_admin changes are ignored. */
export function restrictSelfUpdate(ctx: WriteContext, current: Row, next: Row): void {
  if (ctx.call.caller.isAdmin) return;
  for (const field of ADMIN_ONLY_FIELDS) {
    if (field in ctx.input && ctx.input[field] !== current[field]) {
      throw new ForbiddenError(`Forbidden: only admins may change ${field}`);
    }
  }
  if ('owner_uuid' in ctx.input && ctx.input['owner_uuid'] !== current['owner_uuid']) {
    throw new ForbiddenError();
  }
  next['is_active'] = current['is_active'];
  next['is_admin'] = current['is_admin'];
}

function computeUserAttribute(call: Call, name: string, row: Row): unknown {
  if (name === 'is_invited')
    return row['is_invited'] === true || call.cluster.Users.NewUsersAreActive;
  return permissionFlag(call, name, row);
}

const renderUser = (call: Call, uuid: string): Promise<Reply> => readObject(call, userRules, uuid);

const isLocalUser = (call: Call, uuid: string): boolean =>
  uuid.startsWith(`${call.cluster.ClusterID}-`) && !isBuiltIn(call.cluster.ClusterID, uuid);

const hasProfile = (row: Row | null): boolean =>
  typeof row?.['prefs'] === 'object' && row['prefs'] !== null && 'profile' in row['prefs'];

/**
 * What follows a user write (other-resources.md §5, docs/api/more-resources.md §5.1, §5.7): becoming
 * active runs the setup procedure, becoming inactive removes the all-users membership; a local
 * user created while AutoSetupNewUsers is on is set up (so invited); admins hear of new users,
 * and of a first profile.
 */
async function afterUserWrite(ctx: WriteContext, row: Row, previous: Row | null): Promise<void> {
  const { call, tx } = ctx;
  const user = String(row['uuid']);
  const activated = row['is_active'] === true && previous?.['is_active'] !== true;
  const builtIn = isBuiltIn(call.cluster.ClusterID, user);
  if (previous?.['is_active'] === true && row['is_active'] !== true) {
    const allUsers = builtInUuids(call.cluster.ClusterID).allUsersGroup;
    await deletePermissionLinks(tx, call.cluster.ClusterID, user, allUsers);
    await deletePermissionLinks(tx, call.cluster.ClusterID, allUsers, user);
  }
  const autoSetup =
    previous === null && call.cluster.Users.AutoSetupNewUsers && isLocalUser(call, user);
  if ((activated && !builtIn) || autoSetup) await runSetup(ctx, row);
  if (previous === null) {
    const { rows } = await tx.query<{ invited: boolean }>(
      statement(
        `SELECT EXISTS (SELECT 1 FROM links WHERE link_class = 'permission' AND tail_uuid = $1
           AND head_uuid = $2) AS invited`,
        [user, builtInUuids(call.cluster.ClusterID).allUsersGroup],
      ),
    );
    const invited =
      row['is_active'] === true || call.cluster.Users.NewUsersAreActive || rows[0]!.invited;
    queueNewUserNotice(call, row, invited);
  }
  if (previous !== null && hasProfile(row) && !hasProfile(previous)) queueProfileNotice(call, row);
}

export const userRules: ResourceRules = {
  resource: users,
  policy: userPolicy,
  async prepareCreate(ctx, row) {
    row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
    failIfAny([...(await usernameProblems(ctx, row)), ...flagProblems(ctx, row)]);
  },
  async prepareUpdate(ctx, current, next) {
    restrictSelfUpdate(ctx, current, next);
    next['owner_uuid'] = current['owner_uuid'];
    failIfAny([...(await usernameProblems(ctx, next)), ...flagProblems(ctx, next)]);
  },
  /** Setup may have made the user invited: the answer says so. */
  async afterWriteRow(ctx, row, previous) {
    await afterUserWrite(ctx, row, previous);
    const { rows } = await ctx.tx.query<{ is_invited: boolean }>(
      toQuery(
        sql`SELECT ${rowColumns(users, ['is_invited'], false)} FROM users WHERE uuid = ${String(row['uuid'])}`,
      ),
    );
    return { ...row, is_invited: rows[0]?.is_invited ?? row['is_invited'] };
  },
  /** A deleted user holds no permissions any more. */
  async afterRemove(_call, row, tx) {
    await tx.query(
      statement('DELETE FROM materialized_permissions WHERE user_uuid = $1', [row['uuid']]),
    );
  },
  visibleAttributes: (call, row) =>
    call.caller.isAdmin || row['uuid'] === call.caller.uuid ? null : PUBLIC_USER_ATTRIBUTES,
  renderColumns: permissionFlagColumns,
  beforeRender: loadPermissionFlags,
  computeAttribute: computeUserAttribute,
  extraHandlers: {
    current: (call) => renderUser(call, call.caller.uuid),
    system: (call) => renderUser(call, builtInUuids(call.cluster.ClusterID).systemUser),
  },
};
