import { builtInUuids, links, msg, users } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { parseUuid } from '@svc/ids';
import type { Call } from '../../call';
import { statement, type Db } from '../../db/db';
import { isGroupUuid, isUserUuid } from '../../permissions/kinds';
import { levelOfLinkName, PERMISSION_NAMES } from '../../permissions/levels';
import {
  deleteLinksByUuid,
  linkWritten,
  raiseLinkLevel,
  type PermissionName,
} from '../../permissions/graph-writes';
import { isReadable } from '../../permissions/readable';
import { failIfAny } from '../common/crud';
import type { Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { linkPolicy } from './policy';

const isPermission = (row: Row): boolean => row['link_class'] === 'permission';
const LEVEL_NAMES = ['can_read', 'can_write', 'can_manage'];

/** A remote user (of a configured remote cluster) may be a tail without a lookup. */
export function isRemoteUser(call: Call, uuid: string): boolean {
  const parsed = parseUuid(uuid);
  return (
    parsed !== null && parsed.infix === users.infix && parsed.cluster in call.cluster.RemoteClusters
  );
}

async function tailProblems(ctx: WriteContext, tail: unknown): Promise<string[]> {
  if (typeof tail !== 'string') return [];
  if (isRemoteUser(ctx.call, tail)) return [];
  if (!(await isReadable(ctx.tx, ctx.call, tail)))
    return [msg.referenceNotFound('tail_uuid', tail)];
  if (isUserUuid(tail)) return [];
  if (!isGroupUuid(tail)) return ['tail_uuid must be a user or role'];
  const { rows } = await ctx.tx.query<{ group_class: string }>(
    statement('SELECT group_class FROM groups WHERE uuid = $1', [tail]),
  );
  const klass = rows[0]?.group_class;
  return klass === 'role'
    ? []
    : [`tail_uuid must be a user or role, was group with group_class ${klass}`];
}

/** Rules of permission links (permissions.md §3); other links only need readable ends. */
async function checkLink(ctx: WriteContext, row: Row, previous: Row | null): Promise<void> {
  const problems: string[] = [];
  const changed = (name: string) => !previous || previous[name] !== row[name];
  if (!isPermission(row)) {
    for (const end of ['tail_uuid', 'head_uuid']) {
      const v = row[end];
      if (typeof v === 'string' && changed(end) && !(await isReadable(ctx.tx, ctx.call, v))) {
        problems.push(msg.referenceNotFound(end, v));
      }
    }
    return failIfAny(problems);
  }
  if (!PERMISSION_NAMES.includes(row['name'] as never)) {
    problems.push(
      `name '${String(row['name'])}' is invalid permission, must be one of 'can_read', 'can_write', 'can_manage', 'can_login'`,
    );
  }
  if (changed('tail_uuid')) problems.push(...(await tailProblems(ctx, row['tail_uuid'])));
  const head = row['head_uuid'];
  if (
    typeof head === 'string' &&
    changed('head_uuid') &&
    !(await isReadable(ctx.tx, ctx.call, head))
  ) {
    problems.push(msg.referenceNotFound('head_uuid', head));
  }
  failIfAny(problems);
}

/** Only the level of a permission link may change. */
export function checkPermissionUpdate(ctx: WriteContext, current: Row, next: Row): void {
  if (!isPermission(current) && !isPermission(next)) return;
  for (const name of ['link_class', 'tail_uuid', 'head_uuid', 'properties', 'owner_uuid']) {
    if (name in ctx.input && JSON.stringify(next[name]) !== JSON.stringify(current[name])) {
      throw new UnprocessableError('Can only alter permission link level');
    }
  }
}

/**
 * Serialises the level-link writes of one (tail, head) pair until commit: without it, parallel
 * creates each see no link and each insert one, and deleting one of them would not revoke.
 * Read-committed reads after the lock see what the previous holder committed.
 */
async function lockPair(tx: Db, row: Row): Promise<void> {
  await tx.query(
    statement(
      `SELECT pg_advisory_xact_lock(hashtextextended('permission pair ' || $1 || ' ' || $2, 0))`,
      [String(row['tail_uuid']), String(row['head_uuid'])],
      'link_pair_lock',
    ),
  );
}

async function overlapping(tx: Db, row: Row): Promise<Row[]> {
  const { rows } = await tx.query<Row>(
    statement(
      `SELECT uuid, name FROM links WHERE link_class = 'permission' AND tail_uuid = $1 AND head_uuid = $2
        AND name = ANY($3::text[]) AND uuid <> $4 ORDER BY created_at, uuid`,
      [row['tail_uuid'], row['head_uuid'], LEVEL_NAMES, row['uuid']],
    ),
  );
  return rows;
}

const loginUsername = (row: Row): string | null => {
  const props = row['properties'];
  const name = typeof props === 'object' && props !== null ? (props as Row)['username'] : null;
  return row['link_class'] === 'permission' &&
    row['name'] === 'can_login' &&
    typeof name === 'string'
    ? name
    : null;
};

/** Other can_login links of the same user, machine and account name (docs/api/more-resources.md §4.2). */
async function sameLogins(tx: Db, row: Row, username: string): Promise<Row[]> {
  const { rows } = await tx.query<Row>(
    statement(
      `SELECT uuid FROM links WHERE link_class = 'permission' AND name = 'can_login'
          AND tail_uuid = $1 AND head_uuid = $2 AND properties->>'username' = $3 AND uuid <> $4
        ORDER BY created_at, uuid`,
      [row['tail_uuid'], row['head_uuid'], username, row['uuid']],
    ),
  );
  return rows;
}

/**
 * At most one level link per (tail, head): a second create answers the existing link, raised
 * to the requested level if that is higher (permissions.md §3). A second login of one account
 * answers the existing one, unchanged.
 */
async function existingLevelLink(ctx: WriteContext, draft: Row): Promise<Row | null> {
  const username = loginUsername(draft);
  if (username !== null) {
    await lockPair(ctx.tx, draft);
    return (await sameLogins(ctx.tx, draft, username))[0] ?? null;
  }
  if (!isPermission(draft) || !LEVEL_NAMES.includes(String(draft['name']))) return null;
  await lockPair(ctx.tx, draft);
  const existing = (await overlapping(ctx.tx, draft))[0];
  if (!existing) return null;
  if (levelOfLinkName(draft['name']) > levelOfLinkName(existing['name'])) {
    await raiseLinkLevel(
      ctx.tx,
      ctx.call.cluster.ClusterID,
      {
        uuid: String(existing['uuid']),
        tail: String(draft['tail_uuid']),
        head: String(draft['head_uuid']),
      },
      draft['name'] as PermissionName,
      ctx.call.caller.uuid,
      ctx.now,
    );
  }
  return { uuid: existing['uuid'] };
}

/** Updating a link to a level deletes any other link of the same pair. */
async function afterLinkWrite(ctx: WriteContext, row: Row, previous: Row | null): Promise<void> {
  if (!isPermission(row) && !(previous && isPermission(previous))) return;
  if (previous && isPermission(row) && LEVEL_NAMES.includes(String(row['name']))) {
    await lockPair(ctx.tx, row);
    const others = (await overlapping(ctx.tx, row)).map((r) => String(r['uuid']));
    await deleteLinksByUuid(ctx.tx, others);
  }
  const username = previous ? loginUsername(row) : null;
  if (username !== null) {
    await lockPair(ctx.tx, row);
    const others = (await sameLogins(ctx.tx, row, username)).map((r) => String(r['uuid']));
    await deleteLinksByUuid(ctx.tx, others);
  }
  await linkWritten(ctx.tx, ctx.call.cluster.ClusterID, row, previous);
}

export const linkRules: ResourceRules = {
  resource: links,
  policy: linkPolicy,
  ownReferenceRules: ['tail_uuid', 'head_uuid'],
  async prepareCreate(ctx, row) {
    if (isPermission(row)) row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
    await checkLink(ctx, row, null);
  },
  existingFor: existingLevelLink,
  async prepareUpdate(ctx, current, next) {
    checkPermissionUpdate(ctx, current, next);
    if (isPermission(next)) next['owner_uuid'] = current['owner_uuid'];
    await checkLink(ctx, next, current);
  },
  afterWrite: afterLinkWrite,
  afterRemove: (call, row, tx) => linkWritten(tx, call.cluster.ClusterID, null, row),
};
