import { builtInUuids, links, moreMsg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { rowColumns, sql, toQuery, type Sql } from '@svc/list-engine';
import type { Call } from '../../call';
import { statement, type Db } from '../../db/db';
import { ensureLoginLink, ensurePermissionLink } from '../../permissions/graph-writes';
import type { Row } from '../common/row';
import { queueWelcome } from './notify';

export interface SetupContext {
  call: Call;
  tx: Db;
  now: string;
}

/** Absent or null: the configured defaults apply (docs/api/more-resources.md §5.1 steps 3 and 4). */
export interface SetupOptions {
  vmUuid?: string | null;
  sendEmail?: boolean | null;
}

async function linkRow(tx: Db, where: Sql): Promise<Row | null> {
  const { rows } = await tx.query<Row>(
    toQuery(
      sql`SELECT ${rowColumns(links, null, false)} FROM links WHERE ${where} ORDER BY created_at, uuid LIMIT 1`,
    ),
  );
  return rows[0] ?? null;
}

const isMember = async (tx: Db, user: string, allUsers: string): Promise<boolean> =>
  (
    await tx.query(
      statement(
        `SELECT 1 FROM links WHERE link_class = 'permission' AND tail_uuid = $1 AND head_uuid = $2`,
        [user, allUsers],
      ),
    )
  ).rows.length > 0;

/** Step 3: a login on the virtual machine, for a user with a username. */
async function loginLink(ctx: SetupContext, user: Row, vm: string): Promise<Row | null> {
  const username = user['username'];
  if (vm === '' || typeof username !== 'string' || username === '') return null;
  const { rows } = await ctx.tx.query(
    statement('SELECT 1 FROM virtual_machines WHERE uuid = $1', [vm]),
  );
  if (rows.length === 0) throw new UnprocessableError(moreMsg.noVmFound(vm));
  const tail = String(user['uuid']);
  await ensureLoginLink(ctx.call, ctx.tx, tail, vm, username, ctx.now);
  return linkRow(
    ctx.tx,
    sql`link_class = 'permission' AND name = 'can_login' AND tail_uuid = ${tail}
        AND head_uuid = ${vm} AND properties->>'username' = ${username}`,
  );
}

/**
 * The setup procedure (docs/api/more-resources.md §5.1), in the caller's transaction: membership of all
 * users, a login on the configured or given virtual machine, and the welcome email for a user
 * set up for the first time. Answers the links it ensured, login link first. Setup never
 * activates the user.
 */
export async function runSetup(ctx: SetupContext, user: Row, opts: SetupOptions = {}) {
  const { call, tx, now } = ctx;
  const uuid = String(user['uuid']);
  const allUsers = builtInUuids(call.cluster.ClusterID).allUsersGroup;
  const newlySetUp = !(await isMember(tx, uuid, allUsers));
  await ensurePermissionLink(call, tx, uuid, allUsers, 'can_write', now);
  await ensurePermissionLink(call, tx, allUsers, uuid, 'can_read', now);
  const vm = opts.vmUuid ?? call.cluster.Users.AutoSetupNewUsersWithVmUUID;
  const login = await loginLink(ctx, user, vm);
  const sendEmail = opts.sendEmail ?? call.cluster.Users.SendUserSetupNotificationEmail;
  if (newlySetUp && sendEmail) queueWelcome(call, user);
  const pair = (tail: string, head: string, name: string) =>
    linkRow(
      tx,
      sql`link_class = 'permission' AND name = ${name} AND tail_uuid = ${tail} AND head_uuid = ${head}`,
    );
  const membership = [
    await pair(uuid, allUsers, 'can_write'),
    await pair(allUsers, uuid, 'can_read'),
  ];
  return [login, ...membership].filter((r): r is Row => r !== null);
}
