import { stringOption, type Call, type Reply } from '../../call';
import { statement } from '../../db/db';
import { findVisible } from '../common/crud';
import { containerRequestRules } from './rules';

/** svc has no dispatcher status channel: fixed texts by state (docs/api/more-resources.md §9.1). */
function schedulingStatus(state: string, priority: bigint): string {
  if (state === 'Locked' || (state === 'Queued' && priority > 0n)) return 'Waiting in queue.';
  return '';
}

/**
 * `GET /container_requests/<uuid>/container_status`: the request must be readable; its
 * container is read with the server's privileges, so a request answers even when its container
 * is no longer readable to the caller.
 */
export async function containerStatus(call: Call): Promise<Reply> {
  const request = await findVisible(
    call,
    containerRequestRules,
    call.db,
    stringOption(call, 'uuid'),
    false,
  );
  const uuid = typeof request['container_uuid'] === 'string' ? request['container_uuid'] : '';
  const { rows } = uuid
    ? await call.db.query<{ state: string; priority: string | number }>(
        statement('SELECT state, priority::text AS priority FROM containers WHERE uuid = $1', [
          uuid,
        ]),
      )
    : { rows: [] };
  const container = rows[0];
  if (!container) {
    return {
      body: {
        kind: 'svc#containerStatus',
        uuid: '',
        container_state: '',
        scheduling_status: 'No container is assigned.',
      },
    };
  }
  return {
    body: {
      kind: 'svc#containerStatus',
      uuid,
      container_state: container.state,
      scheduling_status: schedulingStatus(container.state, BigInt(container.priority)),
    },
  };
}
