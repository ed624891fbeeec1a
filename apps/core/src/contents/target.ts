import { NotFoundError, UnprocessableError } from '@svc/errors';
import { sql, toQuery } from '@svc/list-engine';
import { flagOption, stringOption, type Call } from '../call';
import { statement } from '../db/db';
import { callerSet } from '../permissions/caller-set';
import { includeTrash } from '../permissions/include-trash';
import { isGroupUuid, isUserUuid } from '../permissions/kinds';
import { findVisible } from '../resources/common/crud';
import { groupRules } from '../resources/groups/rules';
import type { Target } from './scope';

export interface Resolved {
  target: Target;
  /** A filter group's stored conditions, appended to the request's. */
  storedFilters: unknown[];
}

/** Does the caller read everything a user owns (the user, or a user the caller manages)? */
async function traversesUser(call: Call, user: string): Promise<boolean> {
  if (call.caller.isAdmin || call.caller.uuid === user) return true;
  const { rows } = await call.db.query(
    toQuery(sql`SELECT 1 WHERE ${user}::text IN ${callerSet(call.caller.uuid)}`),
  );
  return rows.length > 0;
}

/**
 * The owner set of `recursive=true`: the target and every project beneath it, leaving out
 * projects hidden by trash (and so their subtrees) unless include_trash.
 */
async function withDescendants(call: Call, root: string): Promise<string[]> {
  const hidden = includeTrash(call)
    ? ''
    : 'AND (g.trash_at IS NULL OR g.trash_at > statement_timestamp())';
  const { rows } = await call.db.query<{ uuids: string[] }>(
    statement(
      `WITH RECURSIVE tree(uuid) AS (
         SELECT $1::text COLLATE "C"
         UNION ALL
         SELECT g.uuid FROM groups g JOIN tree t ON g.owner_uuid = t.uuid
          WHERE g.group_class = 'project' ${hidden})
       SELECT array_agg(uuid) AS uuids FROM tree`,
      [root],
    ),
  );
  return rows[0]?.uuids ?? [root];
}

/** groups.md §3 step 1 (and §8 for filter groups). */
export async function resolveTarget(call: Call): Promise<Resolved> {
  const uuid = stringOption(call, 'uuid');
  const recursive = flagOption(call, 'recursive');
  if (uuid === '') {
    const shared = flagOption(call, 'exclude_home_project');
    return { target: { kind: shared ? 'shared' : 'everything' }, storedFilters: [] };
  }
  if (flagOption(call, 'exclude_home_project')) {
    throw new UnprocessableError("Cannot use 'exclude_home_project' with a parent object");
  }
  if (isGroupUuid(uuid)) {
    const group = await findVisible(call, groupRules, call.db, uuid, false);
    if (group['group_class'] === 'filter') {
      const props = group['properties'] as Record<string, unknown> | null;
      const stored = props?.['filters'];
      return { target: { kind: 'everything' }, storedFilters: Array.isArray(stored) ? stored : [] };
    }
    const owners =
      recursive && group['group_class'] === 'project' ? await withDescendants(call, uuid) : [uuid];
    return { target: { kind: 'owners', owners, traversable: true }, storedFilters: [] };
  }
  if (isUserUuid(uuid)) {
    const { rows } = await call.db.query(statement('SELECT 1 FROM users WHERE uuid = $1', [uuid]));
    if (rows.length === 0) throw new NotFoundError();
    const owners = recursive ? await withDescendants(call, uuid) : [uuid];
    return {
      target: { kind: 'owners', owners, traversable: await traversesUser(call, uuid) },
      storedFilters: [],
    };
  }
  throw new NotFoundError();
}
