import { NotFoundError, UnprocessableError } from '@svc/errors';
import { raw, sql, toQuery, type Sql } from '@svc/list-engine';
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
 * The owner set of `recursive=true`, as a subquery: the target and every project beneath it,
 * leaving out projects hidden by trash (and so their subtrees) unless include_trash. One range
 * of the closure table's ancestor index, the target included through its own row (a user has
 * none, so it is added); the target is visible (checked before), so a project beneath is hidden
 * exactly when it or an ancestor is trashed. Filter groups beneath own nothing, so they add no
 * objects. Written without a union for a project, so PostgreSQL knows the set's size and, for a
 * first page, walks the type's modified_at index probing each owner's ancestor row.
 */
function treeOf(call: Call, root: string, isUser: boolean): Sql {
  const hidden = includeTrash(call)
    ? sql``
    : sql`AND NOT EXISTS (SELECT 1 FROM hidden_groups h WHERE h.group_uuid = a.group_uuid
                           AND h.trash_at <= statement_timestamp())`;
  const beneath = sql`SELECT a.group_uuid AS uuid FROM group_ancestors a
     WHERE a.ancestor_uuid = ${root} ${hidden}`;
  return isUser ? sql`SELECT ${root}::text COLLATE "C" AS uuid UNION ALL ${beneath}` : beneath;
}

/**
 * The recursive owner set, and unless `counted` is false (count=none), its counts in one
 * statement: the per-owner counters summed over it, and the objects trashed themselves in it,
 * so the counts need no pass over thousands of owners' rows.
 */
async function withDescendants(
  call: Call,
  root: string,
  isUser: boolean,
  counted: boolean,
): Promise<{ tree: Sql; tally?: Tally }> {
  const tree = treeOf(call, root, isUser);
  if (!counted) return { tree };
  const trashed = (table: string, extra: Sql = sql``) =>
    sql`(SELECT count(*) FROM ${raw(table)} x JOIN tree t ON x.owner_uuid = t.uuid
       WHERE x.trash_at IS NOT NULL AND x.trash_at <= statement_timestamp() ${extra})`;
  const { rows } = await call.db.query<{
    counts: Record<string, string> | null;
    tg: string;
    tc: string;
  }>({
    custom: true,
    ...toQuery(
      sql`WITH tree AS MATERIALIZED (${tree})
       SELECT (SELECT jsonb_object_agg(item_type, n) FROM (
                 SELECT c.item_type, sum(c.n) AS n FROM owner_item_counts c
                   JOIN tree t ON c.owner_uuid = t.uuid GROUP BY c.item_type) s) AS counts,
              ${trashed('groups', sql`AND x.group_class <> 'role'`)} AS tg,
              ${trashed('collections')} AS tc`,
    ),
  });
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
  return { tree, tally };
}

/**
 * groups.md §3 step 1 (and §8 for filter groups). `counted`: the request counts (a recursive
 * owner set's counters are then read with it).
 */
export async function resolveTarget(call: Call, counted = true): Promise<Resolved> {
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
      const { tree, tally } = await withDescendants(call, uuid, false, counted);
      const target: Target = { kind: 'owners', owners: [uuid], tree, traversable: true };
      if (tally) target.tally = tally;
      return { target, storedFilters: [] };
    }
    return { target: { kind: 'owners', owners: [uuid], traversable: true }, storedFilters: [] };
  }
  if (isUserUuid(uuid)) {
    const { rows } = await call.db.query(statement('SELECT 1 FROM users WHERE uuid = $1', [uuid]));
    if (rows.length === 0) throw new NotFoundError();
    const traversable = await traversesUser(call, uuid);
    if (recursive) {
      const { tree, tally } = await withDescendants(call, uuid, true, counted);
      const target: Target = { kind: 'owners', owners: [uuid], tree, traversable };
      if (tally) target.tally = tally;
      return { target, storedFilters: [] };
    }
    return { target: { kind: 'owners', owners: [uuid], traversable }, storedFilters: [] };
  }
  throw new NotFoundError();
}
