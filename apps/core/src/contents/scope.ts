import { bindValue, raw, sql, type Sql } from '@svc/list-engine';
import type { Call } from '../call';
import { callerSet, col } from '../permissions/caller-set';
import { includeTrash } from '../permissions/include-trash';
import { groupSql, userSql } from '../permissions/kinds';
import { notHiddenInsideFrozen, notTrashedItself } from '../permissions/visibility';
import type { ResourceRules } from '../resources/common/rules';
import { hasTrashAt } from './types';

/** Per type: the counters summed over an owner set, and its objects trashed themselves. */
export type Tally = Map<string, { all: number; trashed: number }>;

/** Which objects a contents request starts from (groups.md §3 steps 1 and 3). */
export type Target =
  /**
   * Objects owned by one of `owners`, or with `tree` (recursive), by one of the uuids that
   * subquery yields. `traversable`: the caller reads all they own. `tally`: the counts of a
   * recursive owner set, read with it.
   */
  | { kind: 'owners'; owners: string[]; tree?: Sql; traversable: boolean; tally?: Tally }
  /** Every readable object (no uuid, or a filter group). */
  | { kind: 'everything' }
  /** `exclude_home_project=true`: readable objects reaching the caller through sharing. */
  | { kind: 'shared' };

/**
 * Objects reaching the caller other than through their own ownership chain (§4): the owner is
 * another user, a group the caller cannot read, or a group that is not a project.
 */
export function sharedOwner(call: Call, table: string): Sql {
  const owner = col(table, 'owner_uuid');
  const unreadable = call.caller.isAdmin
    ? sql`FALSE`
    : sql`(${raw(groupSql(`"${table}"."owner_uuid"`))} AND NOT EXISTS (
        SELECT 1 FROM materialized_permissions p
         WHERE p.user_uuid IN ${callerSet(call.caller.uuid)} AND p.target_uuid = ${owner}))`;
  return sql`((${raw(userSql(`"${table}"."owner_uuid"`))} AND ${owner} <> ${call.caller.uuid})
    OR ${unreadable}
    OR EXISTS (SELECT 1 FROM groups og WHERE og.uuid = ${owner} AND og.group_class <> 'project'))`;
}

const ownedBy = (table: string, owners: readonly string[]): Sql =>
  owners.length === 1
    ? sql`${col(table, 'owner_uuid')} = ${owners[0]}`
    : sql`${col(table, 'owner_uuid')} = ANY(${bindValue(owners)}::text[])`;

/**
 * With include_trash, non-admins still do not see hidden objects inside a frozen project
 * (groups.md §3 step 5). Under traversed owners the read policy is not applied, so its
 * condition is added here; elsewhere the policy already carries it.
 */
function notTrashedInFrozen(call: Call, rules: ResourceRules): Sql[] {
  if (!includeTrash(call) || call.caller.isAdmin || !hasTrashAt(rules.resource)) return [];
  return [notHiddenInsideFrozen(rules.resource.type, true)];
}

/** Project and filter groups only: roles never appear in contents. */
const notRole = (rules: ResourceRules): Sql[] =>
  rules.resource.type === 'groups' ? [sql`"groups"."group_class" IN ('project', 'filter')`] : [];

/**
 * The conditions that choose one type's rows, besides the request's filters. Under owners the
 * caller traverses, every row is readable and, the owners being visible, hidden only when
 * trashed itself: the conditions are then all columns of the type's contents index.
 */
export function typeScope(call: Call, rules: ResourceRules, target: Target): Sql[] {
  const table = rules.resource.type;
  if (target.kind === 'owners') {
    const owned = target.tree
      ? sql`${col(table, 'owner_uuid')} IN (${target.tree})`
      : ownedBy(table, target.owners);
    const visible = target.traversable
      ? includeTrash(call) || !hasTrashAt(rules.resource)
        ? []
        : [notTrashedItself(table)]
      : rules.policy.visible(call, 'read');
    const frozen = target.traversable ? notTrashedInFrozen(call, rules) : [];
    return [owned, ...notRole(rules), ...visible, ...frozen];
  }
  const visible = rules.policy.visible(call, 'read');
  const shared = target.kind === 'shared' ? [sharedOwner(call, table)] : [];
  return [...notRole(rules), ...visible, ...shared];
}

/**
 * The count of one type from the per-owner counters, where it equals the count of the rows the
 * scope chooses: every row under owners the caller traverses, no filters. Rows trashed
 * themselves are counted there and subtracted here, unless include_trash (the partial
 * `*_owner_trashed_idx` indexes find them). Null where the rows must be counted.
 */
export function counterCount(
  call: Call,
  rules: ResourceRules,
  target: Target,
  filtered: boolean,
): Sql | null {
  if (target.kind !== 'owners' || !target.traversable || filtered) return null;
  // A recursive set counted only when the offset passes a type (count=none): rows are counted.
  if (target.tree && !target.tally) return null;
  if (notTrashedInFrozen(call, rules).length > 0) return null;
  const table = rules.resource.type;
  const tally = target.tally?.get(table);
  if (tally) {
    const n = tally.all - (includeTrash(call) || !hasTrashAt(rules.resource) ? 0 : tally.trashed);
    return sql`${n}::bigint`;
  }
  const counted = sql`(SELECT coalesce(sum(c.n), 0) FROM owner_item_counts c
    WHERE ${ownedBy('c', target.owners)} AND c.item_type = ${table})`;
  if (includeTrash(call) || !hasTrashAt(rules.resource)) return counted;
  const t = raw(`"${table}"`);
  const trashed = sql`(SELECT count(*) FROM ${t} WHERE ${ownedBy(table, target.owners)}
    AND ${col(table, 'trash_at')} IS NOT NULL AND ${col(table, 'trash_at')} <= statement_timestamp()
    ${rules.resource.type === 'groups' ? sql`AND "groups"."group_class" <> 'role'` : sql``})`;
  return sql`(${counted} - ${trashed})`;
}
