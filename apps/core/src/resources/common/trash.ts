import { UnprocessableError } from '@svc/errors';
import type { Sql } from '@svc/list-engine';
import type { Call } from '../../call';
import type { Db } from '../../db/db';
import { addSeconds, compareTimes, type Row } from './row';
import type { WriteContext } from './rules';
import { updateStatement } from './write-sql';
import type { ResourceSpec } from '@svc/contract';

const isSet = (v: unknown): v is string => typeof v === 'string';

export const isTrashedAt = (row: Row, now: string): boolean =>
  isSet(row['trash_at']) && compareTimes(row['trash_at'], now) <= 0;

/**
 * trash_at / delete_at / is_trashed on create and update (groups.md §6), applied to `next`.
 * Each save uses the single `now` of its context.
 */
export function applyTrashInput(ctx: WriteContext, current: Row | null, next: Row): void {
  const { input, now } = ctx;
  const ttl = ctx.call.cluster.Collections.BlobSigningTTL;
  const hasTrash = 'trash_at' in input;
  const hasDelete = 'delete_at' in input;
  if (hasTrash) {
    const t = input['trash_at'];
    next['trash_at'] = isSet(t) && compareTimes(t, now) < 0 ? now : (t ?? null);
  } else if ('is_trashed' in input) {
    const wasTrashed = current !== null && isTrashedAt(current, now);
    if (input['is_trashed'] === true && !wasTrashed) next['trash_at'] = now;
    if (input['is_trashed'] === false) next['trash_at'] = null;
  }
  const trashChanged = hasTrash || next['trash_at'] !== (current?.['trash_at'] ?? null);
  if (!hasDelete && trashChanged) {
    next['delete_at'] = isSet(next['trash_at']) ? addSeconds(next['trash_at'], ttl) : null;
  }
  if (isSet(next['trash_at']) !== isSet(next['delete_at'])) {
    throw new UnprocessableError(
      'delete_at must be set if trash_at is set, and must be null otherwise',
    );
  }
  if (
    isSet(next['trash_at']) &&
    isSet(next['delete_at']) &&
    compareTimes(next['delete_at'], next['trash_at']) < 0
  ) {
    throw new UnprocessableError('delete_at must not be earlier than trash_at');
  }
}

/** Delete trashes: trash_at = now, delete_at = now + BlobSigningTTL, unless already trashed. */
export async function trashRow(
  call: Call,
  r: ResourceSpec,
  row: Row,
  tx: Db,
  now: string,
  returning: Sql,
): Promise<Row> {
  if (isTrashedAt(row, now)) return row;
  const changes = {
    trash_at: now,
    delete_at: addSeconds(now, call.cluster.Collections.BlobSigningTTL),
    modified_at: now,
    modified_by_user_uuid: call.caller.uuid,
  };
  const { rows } = await tx.query<Row>(updateStatement(r, String(row['uuid']), changes, returning));
  return rows[0]!;
}
