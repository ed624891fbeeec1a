import { statement } from '../../db/db';
import type { Call } from '../../call';
import { levelsOf, levelsOfExisting, type Owned } from '../../permissions/level-of';
import { MANAGE, NONE, WRITE, type Level } from '../../permissions/levels';
import type { Row } from './row';

interface Flags {
  level: Level;
  ownerLevel: Level;
  /** tails of can_write / can_manage links whose head is the object */
  writers: string[];
}

const KEY = 'permissionFlags';

/**
 * Loads what can_write / can_manage / writable_by need for a page of rows, in two queries
 * (permissions.md §10). Frozen projects refine these with the frozen-project rules.
 */
export async function loadPermissionFlags(call: Call, rows: readonly Row[]): Promise<void> {
  const objects = rows
    .filter((r) => typeof r['uuid'] === 'string' && typeof r['owner_uuid'] === 'string')
    .map((r) => ({ uuid: String(r['uuid']), owner: String(r['owner_uuid']) }));
  const levels = await levelsOf(call.db, call.caller, objects);
  const owners = await ownerLevels(call, objects, levels);
  const { rows: links } = await call.db.query<{ head_uuid: string; tail_uuid: string }>(
    statement(
      `SELECT head_uuid, tail_uuid FROM links WHERE link_class = 'permission' AND head_uuid = ANY($1::text[])
        AND name IN ('can_write', 'can_manage') ORDER BY created_at, uuid`,
      [objects.map((o) => o.uuid)],
    ),
  );
  const flags = new Map<string, Flags>();
  for (const o of objects) {
    flags.set(o.uuid, {
      level: levels.get(o.uuid) ?? NONE,
      ownerLevel: owners.get(o.owner) ?? NONE,
      writers: links.filter((l) => l.head_uuid === o.uuid).map((l) => l.tail_uuid),
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

function writableBy(call: Call, row: Row, f: Flags): string[] {
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
      return f.level >= WRITE;
    case 'can_manage':
      return f.level >= MANAGE;
    case 'writable_by':
      return writableBy(call, row, f);
    default:
      return undefined;
  }
}
