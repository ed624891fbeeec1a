import { resourceOfUuid } from '@svc/contract';
import { ForbiddenError, UnprocessableError } from '@svc/errors';
import { statement, type Db } from '../../db/db';
import { isGroupUuid } from '../../permissions/kinds';

/**
 * The nearest frozen project at or above `uuid` (groups.md §7), walking owners up while they are
 * groups; null when none is. Users are never frozen, so the walk ends at the first non-group.
 */
export async function frozenAtOrAbove(tx: Db, uuid: string): Promise<string | null> {
  if (!isGroupUuid(uuid)) return null;
  const { rows } = await tx.query<{ uuid: string }>(
    statement(
      `WITH RECURSIVE up(uuid, depth) AS (
         SELECT $1::text COLLATE "C", 0
         UNION ALL
         SELECT g.owner_uuid, up.depth + 1 FROM groups g JOIN up ON g.uuid = up.uuid
          WHERE g.frozen_by_uuid IS NULL AND up.depth < 10000)
       SELECT g.uuid FROM up JOIN groups g ON g.uuid = up.uuid
        WHERE g.frozen_by_uuid IS NOT NULL ORDER BY up.depth LIMIT 1`,
      [uuid],
      'frozen_walk',
    ),
  );
  return rows[0]?.uuid ?? null;
}

const ownerFrozen = (which: 'new' | 'old') =>
  new ForbiddenError(`owner_uuid cannot be set or changed because ${which} owner is frozen`);

export const isFrozenError = (uuid: string) =>
  new ForbiddenError(`${uuid} is frozen and cannot be modified`);

/** Refuses to put anything in a frozen project, or beneath one. */
export async function assertNotFrozen(tx: Db, clusterId: string, ownerUuid: string): Promise<void> {
  void clusterId;
  if (await frozenAtOrAbove(tx, ownerUuid)) throw ownerFrozen('new');
}

/** A create whose owner is, or is beneath, a frozen project. */
export async function checkFrozenCreate(tx: Db, owner: unknown): Promise<void> {
  if (typeof owner === 'string' && (await frozenAtOrAbove(tx, owner))) throw ownerFrozen('new');
}

/**
 * An update of an object owned by `current.owner_uuid`: a move out of or into a frozen project
 * names the frozen side; any other change beneath a frozen project names the object.
 */
export async function checkFrozenUpdate(
  tx: Db,
  current: Readonly<Record<string, unknown>>,
  attrs: Readonly<Record<string, unknown>>,
): Promise<void> {
  const owner = String(current['owner_uuid']);
  const next = attrs['owner_uuid'];
  const moving = typeof next === 'string' && next !== '' && next !== owner;
  const frozenOwner = await frozenAtOrAbove(tx, owner);
  if (moving && frozenOwner) throw ownerFrozen('old');
  if (moving && (await frozenAtOrAbove(tx, next))) throw ownerFrozen('new');
  if (frozenOwner) throw isFrozenError(String(current['uuid']));
}

/** Trash or delete of an object: refused at or beneath a frozen project. */
export async function checkFrozenRemove(tx: Db, uuid: string, owner: string): Promise<void> {
  if (await frozenAtOrAbove(tx, isGroupUuid(uuid) ? uuid : owner)) throw isFrozenError(uuid);
}

/**
 * Objects that live in projects follow the frozen rules; permission links never do (sharing a
 * frozen project still works), nor objects without an owner.
 */
export const followsFrozenRules = (type: string, row: Readonly<Record<string, unknown>>): boolean =>
  !(type === 'links' && row['link_class'] === 'permission');

/** A project to trash must not hold a frozen project at any depth (groups.md §6). */
export async function checkNoFrozenBeneath(tx: Db, project: string): Promise<void> {
  // Frozen projects are few (a partial index finds them): walk up from each, not down the tree.
  const { rows } = await tx.query<{ uuid: string }>(
    statement(
      `WITH RECURSIVE up(frozen, uuid, depth) AS (
         SELECT f.uuid, f.owner_uuid, 1 FROM groups f
          WHERE f.frozen_by_uuid IS NOT NULL AND f.uuid <> $1
         UNION ALL
         SELECT up.frozen, g.owner_uuid, up.depth + 1 FROM groups g JOIN up ON g.uuid = up.uuid
          WHERE up.uuid <> $1 AND up.depth < 10000)
       SELECT frozen AS uuid FROM up WHERE uuid = $1 ORDER BY frozen LIMIT 1`,
      [project],
      'frozen_beneath',
    ),
  );
  if (rows[0]) {
    throw new UnprocessableError(`cannot trash project containing frozen project ${rows[0].uuid}`);
  }
}

/**
 * Which of `starts` (group uuids) are frozen or beneath a frozen project, in one query; a cheap
 * probe of the partial index skips the walk when nothing is frozen.
 */
export async function frozenAmong(tx: Db, starts: readonly string[]): Promise<Set<string>> {
  const groups = [...new Set(starts.filter(isGroupUuid))];
  if (groups.length === 0) return new Set();
  const { rows } = await tx.query<{ start: string }>(
    statement(
      `WITH RECURSIVE up(start, uuid, depth) AS (
         SELECT s COLLATE "C", s COLLATE "C", 0 FROM unnest($1::text[]) AS s
          WHERE EXISTS (SELECT 1 FROM groups WHERE frozen_by_uuid IS NOT NULL)
         UNION ALL
         SELECT up.start, g.owner_uuid, up.depth + 1 FROM groups g JOIN up ON g.uuid = up.uuid
          WHERE g.frozen_by_uuid IS NULL AND up.depth < 10000)
       SELECT DISTINCT up.start FROM up JOIN groups g ON g.uuid = up.uuid
        WHERE g.frozen_by_uuid IS NOT NULL`,
      [groups],
      'frozen_among',
    ),
  );
  return new Set(rows.map((r) => r.start));
}

/** Types whose objects live in projects (their owner may be a project). */
const IN_PROJECTS = new Set(['collections', 'workflows', 'container_requests']);

/** Where the frozen walk starts for an object: a group itself, anything else at its owner. */
async function frozenStartOf(tx: Db, uuid: string): Promise<string | null> {
  if (isGroupUuid(uuid)) return uuid;
  const r = resourceOfUuid(uuid);
  if (!r || !IN_PROJECTS.has(r.type)) return null;
  const { rows } = await tx.query<{ owner_uuid: string }>(
    statement(`SELECT owner_uuid FROM ${r.type} WHERE uuid = $1`, [uuid], `frozen_owner_${r.type}`),
  );
  return rows[0]?.owner_uuid ?? null;
}

/**
 * A link that is not a permission link annotates its head: creating, changing or deleting one
 * whose head is a frozen project or lies beneath one changes that project's contents (the
 * message names `subject`, the link or, on create, the head).
 */
export async function checkFrozenLinkHead(
  tx: Db,
  type: string,
  heads: readonly unknown[],
  subject: (head: string) => string,
): Promise<void> {
  if (type !== 'links') return;
  for (const head of new Set(heads)) {
    if (typeof head !== 'string' || head === '') continue;
    const start = await frozenStartOf(tx, head);
    if (start && (await frozenAtOrAbove(tx, start))) throw isFrozenError(subject(head));
  }
}
