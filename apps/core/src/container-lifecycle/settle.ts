import { containerRequests } from '@svc/contract';
import { raw } from '@svc/list-engine';
import { expireContainerToken } from '../auth/container-token';
import { statement } from '../db/db';
import type { Row } from '../resources/common/row';
import { updateStatement } from '../resources/common/write-sql';
import { insertContainer, lockContainer, updateContainer } from './containers-sql';
import type { Lifecycle } from './context';
import { costOf, finalChanges } from './finalize';
import { recomputePriorities } from './priority';

/**
 * What follows from a container reaching an end or a priority changing (containers.md §7, §8,
 * §10): retries, finalized requests, cancelled children, Queued containers nobody wants any more.
 * Everything runs in the caller's transaction.
 */

export const FINAL_CONTAINER_STATES = ['Complete', 'Cancelled'];
const NOT_HIDDEN = `NOT EXISTS (SELECT 1 FROM hidden_groups tg
  WHERE tg.group_uuid = r.owner_uuid AND tg.trash_at <= statement_timestamp())`;

async function updateRequest(lc: Lifecycle, uuid: string, changes: Row): Promise<void> {
  await lc.tx.query(
    updateStatement(
      containerRequests,
      uuid,
      { ...changes, modified_at: lc.now, modified_by_user_uuid: lc.actor },
      raw('1'),
    ),
  );
}

/**
 * Recomputes priorities (§7) and cancels the Queued containers whose priority dropped to 0
 * (§8), with everything that follows from that. True when it ended any container.
 */
export async function updatePriorities(lc: Lifecycle, uuids: readonly string[]): Promise<boolean> {
  const live = uuids.filter((u) => typeof u === 'string' && u !== '');
  if (live.length === 0) return false;
  const dropped = await recomputePriorities(lc, live);
  for (const uuid of dropped) await endContainer(lc, uuid, {});
  return dropped.length > 0;
}

/** The server ends a container itself as Cancelled (priority dropped, dispatch attempts used up). */
export async function endContainer(lc: Lifecycle, uuid: string, changes: Row): Promise<Row | null> {
  const before = await lockContainer(lc, uuid);
  if (!before || FINAL_CONTAINER_STATES.includes(String(before['state']))) return before;
  const after = await updateContainer(lc, uuid, {
    ...changes,
    ...containerEndChanges(lc.now),
    state: 'Cancelled',
  });
  await containerLeftActiveState(lc, before, after);
  return after;
}

/** What every container gets when it enters Complete or Cancelled (§9, §11). */
export const containerEndChanges = (now: string): Row => ({
  finished_at: now,
  secret_mounts: {},
  runtime_token: null,
  locked_by_uuid: null,
});

/**
 * After a container's state changed: its token expires when it leaves Locked or Running, and
 * reaching Complete or Cancelled retries or finalizes its requests. `before` carries the
 * secrets as they were before the scrub, which a retry copies.
 */
export async function containerLeftActiveState(
  lc: Lifecycle,
  before: Row,
  after: Row,
): Promise<void> {
  const wasHolding = ['Locked', 'Running'].includes(String(before['state']));
  const holds = ['Locked', 'Running'].includes(String(after['state']));
  if (wasHolding && !holds && typeof before['auth_uuid'] === 'string') {
    await expireContainerToken(lc.tx, before['auth_uuid'], lc.now);
  }
  if (FINAL_CONTAINER_STATES.includes(String(after['state'])))
    await containerFinished(lc, before, after);
}

async function containerFinished(lc: Lifecycle, before: Row, after: Row): Promise<void> {
  const retried = after['state'] === 'Cancelled' ? await retry(lc, before, after) : [];
  await finalizeRequestsOf(lc, after, retried);
  await cancelChildrenOf(lc, String(after['uuid']));
}

/** §10 step 1: one new container for every request that may try again. */
async function retry(lc: Lifecycle, before: Row, after: Row): Promise<string[]> {
  const { rows } = await lc.tx.query<{ uuid: string }>(
    statement(
      `SELECT r.uuid FROM container_requests r
         LEFT JOIN containers p ON p.uuid = r.requesting_container_uuid
        WHERE r.container_uuid = $1 AND r.state = 'Committed' AND r.priority > 0
          AND r.container_count < r.container_count_max AND ${NOT_HIDDEN}
          AND (r.requesting_container_uuid IS NULL OR (p.state = 'Running' AND p.priority > 0))
        ORDER BY r.uuid FOR UPDATE OF r`,
      [after['uuid']],
      'retryable_requests',
    ),
  );
  if (rows.length === 0) return [];
  const next = await insertContainer(lc, before);
  const uuids = rows.map((r) => r.uuid);
  await lc.tx.query(
    statement(
      `UPDATE container_requests
          SET container_uuid = $2, container_count = container_count + 1,
              cumulative_cost = cumulative_cost + $3::double precision,
              modified_at = $4::text::timestamptz, modified_by_user_uuid = $5
        WHERE uuid = ANY($1::text[])`,
      [uuids, next['uuid'], costOf(after), lc.now, lc.actor],
      'retry_requests',
    ),
  );
  await updatePriorities(lc, [String(next['uuid'])]);
  return uuids;
}

/** §10 step 2: every other Committed request of the container becomes Final. */
async function finalizeRequestsOf(lc: Lifecycle, container: Row, except: readonly string[]) {
  const { rows } = await lc.tx.query<Row>(
    statement(
      `SELECT uuid, owner_uuid, output_name, output_ttl, output_storage_classes, output_properties,
              requesting_container_uuid, cumulative_cost
         FROM container_requests
        WHERE container_uuid = $1 AND state = 'Committed' AND uuid <> ALL($2::text[])
        ORDER BY uuid FOR UPDATE`,
      [container['uuid'], [...except]],
      'requests_to_finalize',
    ),
  );
  for (const request of rows) {
    await updateRequest(lc, String(request['uuid']), await finalChanges(lc, request, container));
  }
}

/** §10 step 3, §8: children of an ended container are cancelled; unstarted ones end at once. */
async function cancelChildrenOf(lc: Lifecycle, parent: string): Promise<void> {
  const { rows } = await lc.tx.query<Row & { container_state: string | null }>(
    statement(
      `SELECT r.uuid, r.owner_uuid, r.container_uuid, r.cumulative_cost, c.state AS container_state
         FROM container_requests r LEFT JOIN containers c ON c.uuid = r.container_uuid
        WHERE r.requesting_container_uuid = $1 AND r.state = 'Committed'
        ORDER BY r.uuid FOR UPDATE OF r`,
      [parent],
      'children_to_cancel',
    ),
  );
  for (const child of rows) {
    const unstarted =
      child.container_state === null || ['Queued', 'Locked'].includes(child.container_state);
    const changes: Row = unstarted
      ? { priority: 0, ...(await finalChanges(lc, child, null)) }
      : { priority: 0 };
    await updateRequest(lc, String(child['uuid']), changes);
  }
  await updatePriorities(
    lc,
    rows.map((r) => String(r['container_uuid'] ?? '')),
  );
}
