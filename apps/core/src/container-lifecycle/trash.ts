import { statement } from '../db/db';
import type { Lifecycle } from './context';
import { updatePriorities } from './settle';

/**
 * The containers of Committed requests owned by the group or by a project beneath it, through
 * the closure table: PostgreSQL joins from whichever side is smaller (the Committed requests'
 * partial index, probing each owner's ancestor row; or the group's range of descendants).
 */
const BENEATH = `
SELECT DISTINCT r.container_uuid
  FROM container_requests r JOIN group_ancestors a ON a.group_uuid = r.owner_uuid
 WHERE a.ancestor_uuid = $1 AND r.state = 'Committed' AND r.container_uuid IS NOT NULL`;

/**
 * A project trashed, untrashed or moved changes which requests beneath it are hidden, and so
 * the priority of their containers (containers.md §7, groups.md §6).
 */
export async function containerPrioritiesBeneath(lc: Lifecycle, groupUuid: string): Promise<void> {
  const { rows } = await lc.tx.query<{ container_uuid: string }>(
    statement(BENEATH, [groupUuid], 'requests_beneath'),
  );
  await updatePriorities(
    lc,
    rows.map((r) => r.container_uuid),
  );
}
