import { statement } from '../db/db';
import type { Lifecycle } from './context';

/**
 * Container priority (containers.md §7): the highest, over the Committed requests with
 * priority > 0 that point at the container and are not hidden by trash, of
 * `priority × 2^50 − created_at in ms` for a top-level request and the parent container's
 * priority for a child request; 0 without such requests. 64-bit throughout.
 */

export const PRIORITY_UNIT = 2n ** 50n;

/** The pure formula for a top-level request (the SQL below computes the same). */
export const topLevelPriority = (priority: number, createdAtMs: number): bigint =>
  BigInt(priority) * PRIORITY_UNIT - BigInt(Math.floor(createdAtMs));

const WANTED = `
  SELECT coalesce(max(CASE WHEN r.requesting_container_uuid IS NULL
           THEN r.priority * ${PRIORITY_UNIT} - floor(extract(epoch FROM r.created_at) * 1000)::bigint
           ELSE coalesce(p.priority, 0) END), 0)
    FROM container_requests r
    LEFT JOIN containers p ON p.uuid = r.requesting_container_uuid
   WHERE r.container_uuid = c.uuid AND r.state = 'Committed' AND r.priority > 0
     AND NOT EXISTS (SELECT 1 FROM hidden_groups tg
                      WHERE tg.group_uuid = r.owner_uuid AND tg.trash_at <= statement_timestamp())`;

interface PriorityRow {
  state: string;
  lock_count: number;
  priority: number | bigint;
  wanted: number | bigint;
}

const ACTIVE = ['Queued', 'Locked', 'Running'];

/** Containers of Committed child requests of a container. */
async function childContainers(lc: Lifecycle, parent: string): Promise<string[]> {
  const { rows } = await lc.tx.query<{ container_uuid: string }>(
    statement(
      `SELECT DISTINCT container_uuid FROM container_requests
        WHERE requesting_container_uuid = $1 AND state = 'Committed' AND container_uuid IS NOT NULL`,
      [parent],
      'priority_children',
    ),
  );
  return rows.map((r) => r.container_uuid);
}

/**
 * Brings the priority of these containers, and of their Queued, Locked or Running
 * descendants, up to date. Returns the Queued containers whose priority dropped from > 0 to 0:
 * the caller cancels them (§8).
 */
export async function recomputePriorities(
  lc: Lifecycle,
  uuids: readonly string[],
): Promise<string[]> {
  const dropped: string[] = [];
  const queue = [...new Set(uuids)];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const uuid = queue.shift()!;
    if (seen.has(uuid)) continue;
    seen.add(uuid);
    const { rows } = await lc.tx.query<PriorityRow>(
      statement(
        `SELECT c.state, c.priority, c.lock_count, (${WANTED}) AS wanted FROM containers c WHERE c.uuid = $1 FOR UPDATE`,
        [uuid],
        'priority_of_container',
      ),
    );
    const row = rows[0];
    if (!row || !ACTIVE.includes(row.state)) continue;
    const before = BigInt(row.priority);
    const wanted = BigInt(row.wanted);
    if (before === wanted) continue;
    await lc.tx.query(
      statement(
        `UPDATE containers SET priority = $2::bigint, modified_at = $3::text::timestamptz WHERE uuid = $1`,
        [uuid, wanted.toString(), lc.now],
        'priority_set',
      ),
    );
    if (row.state === 'Queued' && before > 0n && wanted === 0n) dropped.push(uuid);
    // Children are made with the container's own token, which exists once it was locked.
    if (Number(row.lock_count) > 0) queue.push(...(await childContainers(lc, uuid)));
  }
  return dropped;
}
