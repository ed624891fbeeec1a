import { NotFoundError, UnprocessableError } from '@svc/errors';
import { sql, toQuery } from '@svc/list-engine';
import { flagOption, stringOption, type Call } from '../call';
import { statement } from '../db/db';
import { callerSet } from '../permissions/caller-set';
import { includeTrash } from '../permissions/include-trash';
import { isGroupUuid, isUserUuid } from '../permissions/kinds';
import { findVisible } from '../resources/common/crud';
import { groupRules } from '../resources/groups/rules';
import type { Tally, Target } from './scope';

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
 * projects hidden by trash (and so their subtrees) unless include_trash. The same statement
 * tallies the per-owner counters over the set, and the objects trashed themselves in it, so
 * the counts need no second pass over thousands of owners.
 */
async function withDescendants(
  call: Call,
  root: string,
): Promise<{ owners: string[]; tally: Tally }> {
  const hidden = includeTrash(call)
    ? ''
    : 'AND (g.trash_at IS NULL OR g.trash_at > statement_timestamp())';
  const trashed = (table: string, extra = '') =>
    `(SELECT count(*) FROM ${table} x JOIN tree t ON x.owner_uuid = t.uuid
       WHERE x.trash_at IS NOT NULL AND x.trash_at <= statement_timestamp() ${extra})`;
  const { rows } = await call.db.query<{
    uuids: string[];
    counts: Record<string, string> | null;
    tg: string;
    tc: string;
  }>(
    statement(
      `WITH RECURSIVE tree(uuid) AS (
         SELECT $1::text COLLATE "C"
         UNION ALL
         SELECT g.uuid FROM groups g JOIN tree t ON g.owner_uuid = t.uuid
          WHERE g.group_class = 'project' ${hidden})
       SELECT (SELECT array_agg(uuid) FROM tree) AS uuids,
              (SELECT jsonb_object_agg(item_type, n) FROM (
                 SELECT c.item_type, sum(c.n) AS n FROM owner_item_counts c
                   JOIN tree t ON c.owner_uuid = t.uuid GROUP BY c.item_type) s) AS counts,
              ${trashed('groups', "AND x.group_class <> 'role'")} AS tg,
              ${trashed('collections')} AS tc`,
      [root],
    ),
  );
  const row = rows[0];
  const counts = row?.counts ?? {};
  const trashedSelf: Record<string, number> = {
    groups: Number(row?.tg ?? 0),
    collections: Number(row?.tc ?? 0),
  };
  const tally: Tally = new Map(
    ['groups', 'container_requests', 'workflows', 'collections'].map((t) => [
      t,
      { all: Number(counts[t] ?? 0), trashed: trashedSelf[t] ?? 0 },
    ]),
  );
  return { owners: row?.uuids ?? [root], tally };
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
    if (recursive && group['group_class'] === 'project') {
      const { owners, tally } = await withDescendants(call, uuid);
      return { target: { kind: 'owners', owners, traversable: true, tally }, storedFilters: [] };
    }
    return { target: { kind: 'owners', owners: [uuid], traversable: true }, storedFilters: [] };
  }
  if (isUserUuid(uuid)) {
    const { rows } = await call.db.query(statement('SELECT 1 FROM users WHERE uuid = $1', [uuid]));
    if (rows.length === 0) throw new NotFoundError();
    const traversable = await traversesUser(call, uuid);
    if (recursive) {
      const { owners, tally } = await withDescendants(call, uuid);
      return { target: { kind: 'owners', owners, traversable, tally }, storedFilters: [] };
    }
    return { target: { kind: 'owners', owners: [uuid], traversable }, storedFilters: [] };
  }
  throw new NotFoundError();
}
