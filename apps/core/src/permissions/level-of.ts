import { bindValue, sql, toQuery, type Sql } from '@svc/list-engine';
import type { Caller } from '../call';
import type { Db } from '../db/db';
import { callerSet } from './caller-set';
import { isGroupFragment, isUserExpr } from './kinds';
import { MANAGE, NONE, type Level } from './levels';

/** An object and its owner, as a row in hand already says. */
export interface Owned {
  uuid: string;
  owner: string;
}

/**
 * The caller's level on one object (permissions.md §5), or NONE if it does not exist. Its owner
 * is looked up first (object_owners: one primary-key probe per table).
 */
export async function levelOf(db: Db, caller: Caller, uuid: string): Promise<Level> {
  return (await levelsOfExisting(db, caller, [uuid])).get(uuid) ?? NONE;
}

/** levelOf for many uuids, owners looked up in one query; missing objects are left out. */
export async function levelsOfExisting(
  db: Db,
  caller: Caller,
  uuids: readonly string[],
): Promise<Map<string, Level>> {
  if (uuids.length === 0) return new Map();
  const wanted =
    uuids.length === 1
      ? sql`uuid = ${uuids[0]}`
      : sql`uuid = ANY(${bindValue([...uuids])}::text[])`;
  const { rows } = await db.query<{ uuid: string; owner_uuid: string }>(
    toQuery(sql`SELECT uuid, owner_uuid FROM object_owners WHERE ${wanted}`),
  );
  return levelsOf(
    db,
    caller,
    rows.map((r) => ({ uuid: r.uuid, owner: r.owner_uuid })),
  );
}

/**
 * The objects as a relation o(uuid, owner_uuid). One object is a single row: its statement then
 * gets a generic plan as cheap as a custom one, so PostgreSQL stops re-planning it for every
 * permission-checked get (with unnest it assumed ten rows and re-planned each time).
 */
function objectsSource(objects: readonly Owned[]): Sql {
  const [only] = objects;
  if (objects.length === 1 && only)
    return sql`(SELECT ${only.uuid}::text AS uuid, ${only.owner}::text AS owner_uuid) AS o`;
  return sql`unnest(${bindValue(objects.map((o) => o.uuid))}::text[],
                    ${bindValue(objects.map((o) => o.owner))}::text[]) AS o(uuid, owner_uuid)`;
}

/**
 * The caller's level on the object whose uuid and owner are the given expressions (a column of
 * the row being read, or of a list of objects): 3 on oneself, managed users and what S owns;
 * otherwise the best stored row on the object or on its owner (traversable; managed users lend
 * only their group rows, one hop); for user records also the best permission link into them.
 * Never null. Not for admins, who have 3 on everything.
 */
export function levelSql(caller: Caller, uuid: Sql, owner: Sql): Sql {
  const s = callerSet(caller.uuid);
  return sql`greatest(
        CASE WHEN ${uuid} IN ${s} OR ${owner} IN ${s} THEN 3 ELSE 0 END,
        (SELECT max(p.perm_level) FROM materialized_permissions p
          WHERE p.user_uuid IN ${s}
            AND (p.target_uuid = ${uuid}
                 OR (p.target_uuid = ${owner} AND p.traverse_owned
                     AND (p.user_uuid = ${caller.uuid} OR ${isGroupFragment('p.target_uuid')})))),
        (SELECT max(least(CASE WHEN l.tail_uuid IN ${s} THEN 3 ELSE p.perm_level END,
                          CASE l.name WHEN 'can_manage' THEN 3 WHEN 'can_write' THEN 2 ELSE 1 END))
           FROM links l
           LEFT JOIN materialized_permissions p
             ON p.target_uuid = l.tail_uuid AND p.user_uuid IN ${s} AND ${isGroupFragment('l.tail_uuid')}
          WHERE ${isUserExpr(uuid)} AND l.link_class = 'permission' AND l.head_uuid = ${uuid}
            AND l.name IN ('can_read', 'can_write', 'can_manage', 'can_login')
            AND (l.tail_uuid IN ${s} OR p.user_uuid IS NOT NULL)))`;
}

/**
 * Levels on objects whose owners are known (rendering can_write / can_manage of a page): 3 on
 * oneself, managed users and what S owns; otherwise the best stored row on the object or on its
 * owner (traversable; managed users lend only their group rows, one hop); for user records also
 * the best permission link into them. Admins have 3 on everything.
 */
export async function levelsOf(
  db: Db,
  caller: Caller,
  objects: readonly Owned[],
): Promise<Map<string, Level>> {
  const out = new Map<string, Level>();
  if (objects.length === 0) return out;
  if (caller.isAdmin) {
    for (const o of objects) out.set(o.uuid, MANAGE);
    return out;
  }
  const { rows } = await db.query<{ uuid: string; level: number | null }>(
    toQuery(sql`SELECT o.uuid, ${levelSql(caller, sql`o.uuid`, sql`o.owner_uuid`)} AS level
      FROM ${objectsSource(objects)}`),
  );
  for (const r of rows) out.set(r.uuid, (r.level ?? NONE) as Level);
  return out;
}
