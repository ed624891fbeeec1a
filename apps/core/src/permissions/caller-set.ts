import { join, raw, sql, type Sql } from '@svc/list-engine';
import { isUserFragment } from './kinds';

/**
 * S of permissions.md §9: the caller plus every user the caller manages (level-3 row on a user):
 * the caller acts with their permissions too (§5, one hop).
 */
export const callerSet = (user: string): Sql =>
  sql`(SELECT ${user}::text AS u UNION ALL
       SELECT target_uuid FROM materialized_permissions
        WHERE user_uuid = ${user} AND perm_level = 3 AND ${isUserFragment('target_uuid')})`;

/** `"<table>"."<column>"`: scope conditions sit inside subqueries, so columns are qualified. */
export const col = (table: string, column: string): Sql => raw(`"${table}"."${column}"`);

/** Every condition, ANDed (TRUE for none). */
export const allOf = (conditions: readonly Sql[]): Sql =>
  conditions.length === 0
    ? sql`TRUE`
    : sql`(${join(
        conditions.map((c) => sql`(${c})`),
        ' AND ',
      )})`;
