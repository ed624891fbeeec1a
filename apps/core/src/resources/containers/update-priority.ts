import { stringOption, type Call, type Reply } from '../../call';
import { updatePriorities } from '../../container-lifecycle/settle';
import { statement } from '../../db/db';
import { findVisible, readObject } from '../common/crud';
import { nowCanonical } from '../common/row';
import { containerRules } from './rules';

/** The container and every container its requests started, at any depth, still active. */
const FAMILY = `
WITH RECURSIVE family(uuid) AS (
  SELECT $1::text COLLATE "C"
  UNION
  SELECT r.container_uuid FROM family f
    JOIN container_requests r ON r.requesting_container_uuid = f.uuid
   WHERE r.container_uuid IS NOT NULL
)
SELECT f.uuid FROM family f JOIN containers c ON c.uuid = f.uuid
 WHERE c.state IN ('Queued', 'Locked', 'Running')`;

/**
 * `POST /containers/<uuid>/update_priority` (docs/api/more-resources.md §9.2): derived state repaired —
 * the priorities of the container and its active descendants are recomputed, with what follows
 * (a Queued container whose priority drops to 0 is cancelled). Readable is enough.
 */
export async function updatePriority(call: Call): Promise<Reply> {
  const uuid = stringOption(call, 'uuid');
  await findVisible(call, containerRules, call.db, uuid, false);
  await call.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ uuid: string }>(statement(FAMILY, [uuid]));
    const lc = { tx, cluster: call.cluster, now: nowCanonical(), actor: call.caller.uuid };
    await updatePriorities(
      lc,
      rows.map((r) => r.uuid),
    );
  });
  return readObject({ ...call, options: {} }, containerRules, uuid);
}
