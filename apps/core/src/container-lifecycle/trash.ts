import { statement } from '../db/db';
import type { Lifecycle } from './context';
import { updatePriorities } from './settle';

/** Committed requests counted up to this many pick the walk up from their owners. */
const FEW_COMMITTED = 10_000;

/** From the owners of Committed requests up: cost ∝ requests × depth, whatever the subtree. */
const WALK_UP = `
WITH RECURSIVE owners AS (
  SELECT DISTINCT owner_uuid AS o FROM container_requests
   WHERE state = 'Committed' AND container_uuid IS NOT NULL),
up(start, uuid, depth) AS (
  SELECT o, o, 0 FROM owners
  UNION ALL
  SELECT up.start, g.owner_uuid, up.depth + 1 FROM groups g JOIN up ON g.uuid = up.uuid
   WHERE up.uuid <> $1 AND up.depth < 10000)
SELECT DISTINCT r.container_uuid FROM up JOIN container_requests r ON r.owner_uuid = up.start
 WHERE up.uuid = $1 AND r.state = 'Committed' AND r.container_uuid IS NOT NULL`;

/** From the group down: cost ∝ subprojects beneath it. */
const WALK_DOWN = `
WITH RECURSIVE subtree(uuid) AS (
  SELECT $1::text COLLATE "C"
  UNION SELECT g.uuid FROM groups g JOIN subtree s ON g.owner_uuid = s.uuid)
SELECT DISTINCT r.container_uuid FROM container_requests r JOIN subtree s ON r.owner_uuid = s.uuid
 WHERE r.state = 'Committed' AND r.container_uuid IS NOT NULL`;

/**
 * A project trashed, untrashed or moved changes which requests beneath it are hidden, and so
 * the priority of their containers (containers.md §7, groups.md §6). Committed requests are
 * usually far fewer than the subprojects of a big tree: then the walk goes up from their owners
 * (a project of 100,000 subprojects costs what its requests cost); otherwise down the tree.
 */
export async function containerPrioritiesBeneath(lc: Lifecycle, groupUuid: string): Promise<void> {
  const { rows: counted } = await lc.tx.query<{ n: number }>(
    statement(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM container_requests
         WHERE state = 'Committed' AND container_uuid IS NOT NULL LIMIT ${FEW_COMMITTED + 1}) AS c`,
      [],
      'committed_count',
    ),
  );
  const up = (counted[0]?.n ?? 0) <= FEW_COMMITTED;
  const { rows } = await lc.tx.query<{ container_uuid: string }>(
    statement(up ? WALK_UP : WALK_DOWN, [groupUuid], up ? 'requests_above' : 'requests_beneath'),
  );
  await updatePriorities(
    lc,
    rows.map((r) => r.container_uuid),
  );
}
