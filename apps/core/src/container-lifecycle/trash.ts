import { statement } from '../db/db';
import type { Lifecycle } from './context';
import { updatePriorities } from './settle';

/**
 * A project trashed, untrashed or moved changes which requests beneath it are hidden, and so
 * the priority of their containers (containers.md §7, groups.md §6).
 */
export async function containerPrioritiesBeneath(lc: Lifecycle, groupUuid: string): Promise<void> {
  const { rows } = await lc.tx.query<{ container_uuid: string }>(
    statement(
      `WITH RECURSIVE subtree(uuid) AS (
         SELECT $1::text COLLATE "C"
         UNION SELECT g.uuid FROM groups g JOIN subtree s ON g.owner_uuid = s.uuid)
       SELECT DISTINCT r.container_uuid FROM container_requests r JOIN subtree s ON r.owner_uuid = s.uuid
        WHERE r.state = 'Committed' AND r.container_uuid IS NOT NULL`,
      [groupUuid],
      'requests_beneath_group',
    ),
  );
  await updatePriorities(
    lc,
    rows.map((r) => r.container_uuid),
  );
}
