import { sql, type Sql } from '@svc/list-engine';
import { callerSet, col } from './caller-set';
import { isGroupFragment } from './kinds';
import { READ, type Level } from './levels';

/** Some user in S holds a row for the object itself at `level` or more. */
export const directRow = (user: string, uuidCol: Sql, level: Level): Sql =>
  sql`EXISTS (SELECT 1 FROM materialized_permissions p
               WHERE p.user_uuid IN ${callerSet(user)} AND p.target_uuid = ${uuidCol}
                 AND p.perm_level >= ${level})`;

/**
 * Some user in S can traverse the object's owner at `level` or more. Managed users lend the
 * caller their path levels only: what they own through managing yet another user (a
 * traverse_owned row on a user) is a second hop (permissions.md §5), so only the caller's own
 * rows on users count.
 */
export const ownerRow = (user: string, ownerCol: Sql, level: Level): Sql =>
  sql`EXISTS (SELECT 1 FROM materialized_permissions p
               WHERE p.user_uuid IN ${callerSet(user)} AND p.target_uuid = ${ownerCol}
                 AND p.traverse_owned AND p.perm_level >= ${level}
                 AND (p.user_uuid = ${user} OR ${isGroupFragment('p.target_uuid')}))`;

/**
 * An ordinary owned object is visible at `level` when its owner is in S, or reachable through
 * the owner, or shared with S directly (permissions.md §7 rule 1, §9). Written as two
 * uncorrelated arrays (owners the caller reaches, objects shared directly) so PostgreSQL reads
 * the readable rows through the owner and primary-key indexes (a BitmapOr) instead of testing
 * every row of the table against subplans: on 2M collections a typical user's count went from
 * seconds to milliseconds (permissions benchmark).
 */
export function ownedObjectVisible(user: string, table: string, level: Level = READ): Sql {
  const s = callerSet(user);
  const readableOwners = sql`SELECT u FROM ${s} s
    UNION ALL
    SELECT p.target_uuid FROM materialized_permissions p
     WHERE p.user_uuid IN ${s} AND p.traverse_owned AND p.perm_level >= ${level}
       AND (p.user_uuid = ${user} OR ${isGroupFragment('p.target_uuid')})`;
  const sharedObjects = sql`SELECT p.target_uuid FROM materialized_permissions p
     WHERE p.user_uuid IN ${s} AND p.perm_level >= ${level}`;
  return sql`(${col(table, 'owner_uuid')} = ANY (ARRAY(${readableOwners}))
    OR ${col(table, 'uuid')} = ANY (ARRAY(${sharedObjects})))`;
}

/** Groups: stored rows for every reachable group; roles readable by every active user (§7 rule 2). */
export function groupVisible(user: string, isActive: boolean): Sql {
  const base = ownedObjectVisible(user, 'groups');
  return isActive ? sql`(${base} OR ${col('groups', 'group_class')} = 'role')` : base;
}

/**
 * User records: the caller and managed users; level-3 rows; and users reached through a
 * permission link from S or from a group S reaches (rows below level 3 on users are not
 * stored, so the last edge is read from the links).
 */
export function userVisible(user: string): Sql {
  const uuid = col('users', 'uuid');
  return sql`(${uuid} IN ${callerSet(user)} OR ${directRow(user, uuid, READ)}
    OR EXISTS (SELECT 1 FROM links l
                WHERE l.link_class = 'permission' AND l.head_uuid = ${uuid}
                  AND l.name IN ('can_read', 'can_write', 'can_manage', 'can_login')
                  AND (l.tail_uuid IN ${callerSet(user)}
                       OR EXISTS (SELECT 1 FROM materialized_permissions p
                                   WHERE p.user_uuid IN ${callerSet(user)} AND p.target_uuid = l.tail_uuid
                                     AND ${isGroupFragment('l.tail_uuid')}))))`;
}

/**
 * Hidden groups (groups.md §6): each group with a trashed ancestor-or-self (hidden_groups, the
 * closure joined with the few trashed groups), as an uncorrelated NOT IN, which PostgreSQL runs
 * once per statement as a hashed subplan, so each row costs one hash probe. (As a NOT EXISTS it
 * became an anti-join whose small estimate made the planner rescan the whole hidden list per
 * row: seconds for a page at a deep offset of a million collections.) group_uuid is never null.
 */
const notIn = (uuidCol: Sql): Sql =>
  sql`(${uuidCol} NOT IN (SELECT h.group_uuid FROM hidden_groups h
                           WHERE h.trash_at <= statement_timestamp()))`;

/** Objects owned by a trashed group, or by one beneath it, are hidden (groups.md §6). */
export function notHiddenByOwner(table: string): Sql {
  return notIn(col(table, 'owner_uuid'));
}

/** Trashed themselves (trash_at in the past). */
export function notTrashedItself(table: string): Sql {
  const trashAt = col(table, 'trash_at');
  return sql`(${trashAt} IS NULL OR ${trashAt} > statement_timestamp())`;
}

/** A group is hidden when it or an ancestor is trashed (its own closure row covers itself). */
export const groupNotHidden = (): Sql => notIn(col('groups', 'uuid'));

/**
 * With include_trash, non-admins still never see hidden objects inside frozen projects
 * (permissions.md §7, groups.md §3). The frozen test runs only for hidden rows, and not at all
 * while no project is frozen (one probe of a partial index); it reads the owner's ancestors.
 */
export function notHiddenInsideFrozen(table: string, trashable: boolean): Sql {
  const owner = col(table, 'owner_uuid');
  const hidden =
    table === 'groups'
      ? sql`NOT ${groupNotHidden()}`
      : sql`(NOT ${notHiddenByOwner(table)}${trashable ? sql` OR NOT ${notTrashedItself(table)}` : sql``})`;
  return sql`(CASE WHEN ${hidden} AND EXISTS (SELECT 1 FROM groups fz WHERE fz.frozen_by_uuid IS NOT NULL)
    THEN NOT EXISTS (
      SELECT 1 FROM group_ancestors a JOIN groups g ON g.uuid = a.ancestor_uuid
       WHERE a.group_uuid = ${owner} AND g.frozen_by_uuid IS NOT NULL)
    ELSE true END)`;
}
