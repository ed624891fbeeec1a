import { raw, sql, type Sql } from '@svc/list-engine';
import { statement } from '../../db/db';
import type { Call } from '../../call';
import { col } from '../../permissions/caller-set';
import { levelsOf, levelsOfExisting, levelSql, type Owned } from '../../permissions/level-of';
import { isGroupUuid } from '../../permissions/kinds';
import { MANAGE, NONE, WRITE, type Level } from '../../permissions/levels';
import { frozenAmong } from './frozen';
import type { Row } from './row';

interface Flags {
  level: Level;
  ownerLevel: Level;
  /** tails of can_write / can_manage links whose head is the object */
  writers: string[];
  /** A frozen project, or anything beneath one: nobody can write it (groups.md §7). */
  frozen: boolean;
  /** Its owner is a frozen project or beneath one (then nobody can unfreeze the object). */
  ownerFrozen: boolean;
}

/** Where the frozen walk starts: a group itself, any other object at its owner. */
const frozenStart = (o: Owned): string => (isGroupUuid(o.uuid) ? o.uuid : o.owner);

const KEY = 'permissionFlags';
const FLAG_NAMES = ['can_write', 'can_manage', 'writable_by'];

/** Tails of the can_write / can_manage links into an object, oldest first. */
const writersOf = (uuid: Sql): Sql =>
  sql`ARRAY(SELECT l.tail_uuid FROM links l WHERE l.link_class = 'permission'
              AND l.head_uuid = ${uuid} AND l.name IN ('can_write', 'can_manage')
            ORDER BY l.created_at, l.uuid)`;

/**
 * Whether a group is a frozen project or lies beneath one, as a column (the walk of
 * frozenAmong, for the row's own group): a group's GET then reads its flags in the same
 * round trip as the row. The uncorrelated guard is evaluated once per statement.
 */
const frozenGroupSql = (uuid: Sql): Sql =>
  sql`EXISTS (WITH RECURSIVE up(uuid, depth) AS (
        SELECT ${uuid} COLLATE "C", 0
         WHERE EXISTS (SELECT 1 FROM groups fz WHERE fz.frozen_by_uuid IS NOT NULL)
        UNION ALL
        SELECT fg.owner_uuid, up.depth + 1 FROM groups fg JOIN up ON fg.uuid = up.uuid
         WHERE fg.frozen_by_uuid IS NULL AND up.depth < 10000)
      SELECT 1 FROM up JOIN groups fg ON fg.uuid = up.uuid WHERE fg.frozen_by_uuid IS NOT NULL)`;

/**
 * The caller's level, the writers and (for groups) the frozen state, read with the rows of a
 * get or list (one round trip for the object and its flags); nothing when the selection
 * renders no flag.
 */
export function permissionFlagColumns(
  call: Call,
  table: string,
  select: readonly string[] | null,
): Sql[] {
  if (select && !select.some((name) => FLAG_NAMES.includes(name))) return [];
  const uuid = col(table, 'uuid');
  const level = call.caller.isAdmin
    ? raw(String(MANAGE))
    : levelSql(call.caller, uuid, col(table, 'owner_uuid'));
  const columns = [sql`${level} AS "_level"`, sql`${writersOf(uuid)} AS "_writers"`];
  if (table === 'groups') columns.push(sql`${frozenGroupSql(uuid)} AS "_frozen"`);
  return columns;
}

/** Levels and writers of rows that were not read with permissionFlagColumns (writes). */
async function queriedFlags(call: Call, objects: readonly Owned[]) {
  const levels = await levelsOf(call.db, call.caller, objects);
  const { rows: links } = await call.db.query<{ head_uuid: string; tail_uuid: string }>(
    statement(
      `SELECT head_uuid, tail_uuid FROM links WHERE link_class = 'permission' AND head_uuid = ANY($1::text[])
        AND name IN ('can_write', 'can_manage') ORDER BY created_at, uuid`,
      [objects.map((o) => o.uuid)],
    ),
  );
  const writers = (uuid: string) =>
    links.filter((l) => l.head_uuid === uuid).map((l) => l.tail_uuid);
  return { levels, writers };
}

function flagsFromRows(rows: readonly Row[]) {
  const byUuid = new Map(rows.map((r) => [String(r['uuid']), r]));
  return {
    levels: new Map(rows.map((r) => [String(r['uuid']), Number(r['_level']) as Level])),
    writers: (uuid: string) => (byUuid.get(uuid)?.['_writers'] as string[] | undefined) ?? [],
  };
}

/** The frozen starts among rows read with a `_frozen` column (groups); null if not read. */
function frozenFromRows(rows: readonly Row[]): Set<string> | null {
  if (!rows.every((r) => typeof r['_frozen'] === 'boolean')) return null;
  return new Set(rows.filter((r) => r['_frozen'] === true).map((r) => String(r['uuid'])));
}

/**
 * Loads what can_write / can_manage / writable_by need for a page of rows (permissions.md
 * §10): from the rows' own `_level` / `_writers` columns when the query read them, else in two
 * queries; owner levels only where they can matter. Frozen projects refine these with the
 * frozen-project rules.
 */
export async function loadPermissionFlags(call: Call, rows: readonly Row[]): Promise<void> {
  const withIds = rows.filter(
    (r) => typeof r['uuid'] === 'string' && typeof r['owner_uuid'] === 'string',
  );
  const objects = withIds.map((r) => ({ uuid: String(r['uuid']), owner: String(r['owner_uuid']) }));
  const read = withIds.every((r) => r['_level'] !== undefined && Array.isArray(r['_writers']));
  const { levels, writers } = read ? flagsFromRows(withIds) : await queriedFlags(call, objects);
  const owners = await ownerLevels(call, objects, levels);
  const frozen = frozenFromRows(withIds) ?? (await frozenAmong(call.db, objects.map(frozenStart)));
  // a frozen group's own owner, asked only when there is one (anything else starts at its owner)
  const frozenGroups = objects.filter((o) => isGroupUuid(o.uuid) && frozen.has(o.uuid));
  const frozenOwners =
    frozenGroups.length > 0
      ? await frozenAmong(
          call.db,
          frozenGroups.map((o) => o.owner),
        )
      : null;
  const flags = new Map<string, Flags>();
  for (const o of objects) {
    const isFrozen = frozen.has(frozenStart(o));
    flags.set(o.uuid, {
      level: levels.get(o.uuid) ?? NONE,
      ownerLevel: owners.get(o.owner) ?? NONE,
      writers: writers(o.uuid),
      frozen: isFrozen,
      ownerFrozen: isGroupUuid(o.uuid) ? (frozenOwners?.has(o.owner) ?? false) : isFrozen,
    });
  }
  call.locals[KEY] = flags;
}

/**
 * Levels on the owners, needed only where they can change writable_by: the caller neither owns
 * nor manages the object (permissions.md §10 rule 2).
 */
async function ownerLevels(call: Call, objects: readonly Owned[], levels: Map<string, Level>) {
  const needed = new Set(
    objects
      .filter((o) => o.owner !== call.caller.uuid && (levels.get(o.uuid) ?? NONE) < MANAGE)
      .map((o) => o.owner),
  );
  return levelsOfExisting(call.db, call.caller, [...needed]);
}

/** Whether the caller could unfreeze a frozen project (groups.md §7): not one beneath another. */
function couldUnfreeze(call: Call, f: Flags): boolean {
  if (f.ownerFrozen) return false;
  if (call.caller.isAdmin) return true;
  return f.level === MANAGE && !call.cluster.API.UnfreezeProjectRequiresAdmin;
}

/** permissions.md §10's writable_by, its rules in order. */
function writableBy(call: Call, row: Row, f: Flags): string[] {
  if (f.frozen && !couldUnfreeze(call, f)) return [];
  const owner = String(row['owner_uuid']);
  const me = call.caller.uuid;
  if (owner === me || call.caller.isAdmin || f.level === MANAGE || f.ownerLevel === MANAGE) {
    return [...new Set([owner, me, ...f.writers])];
  }
  return f.level >= WRITE ? [...new Set([owner, me])] : [owner];
}

/** can_write / can_manage / writable_by of a row whose flags were loaded. */
export function permissionFlag(call: Call, name: string, row: Row): unknown {
  const f = (call.locals[KEY] as Map<string, Flags> | undefined)?.get(String(row['uuid']));
  if (!f) return undefined;
  switch (name) {
    case 'can_write':
      return f.level >= WRITE && !f.frozen;
    case 'can_manage':
      return f.level >= MANAGE;
    case 'writable_by':
      return writableBy(call, row, f);
    default:
      return undefined;
  }
}
