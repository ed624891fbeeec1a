import { msg } from '@svc/contract';
import { ForbiddenError, UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';
import { statement, type Db } from '../../db/db';
import { levelOf } from '../../permissions/level-of';
import { MANAGE } from '../../permissions/levels';
import { isFrozenError } from '../common/frozen';
import type { Row } from '../common/row';
import type { WriteContext } from '../common/rules';

/** `""` is treated as null (groups.md §7). */
const frozenValue = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * An update of a frozen project itself: only an unfreeze that changes nothing else may pass, and
 * only for admins or (unless API.UnfreezeProjectRequiresAdmin) managers. Runs before validation.
 */
export async function checkFrozenGroupWrite(
  call: Call,
  tx: Db,
  attrs: Readonly<Record<string, unknown>>,
  current: Row | null,
): Promise<void> {
  if (!current || frozenValue(current['frozen_by_uuid']) === null) return;
  const uuid = String(current['uuid']);
  const others = Object.keys(attrs).filter(
    (k) => k !== 'frozen_by_uuid' && !same(attrs[k], current[k]),
  );
  const unfreezing = 'frozen_by_uuid' in attrs && frozenValue(attrs['frozen_by_uuid']) === null;
  if (!unfreezing) {
    if (
      others.length > 0 ||
      ('frozen_by_uuid' in attrs && !same(attrs['frozen_by_uuid'], current['frozen_by_uuid']))
    )
      throw isFrozenError(uuid);
    return;
  }
  if (others.length > 0) throw isFrozenError(uuid);
  if (call.caller.isAdmin) return;
  if ((await levelOf(tx, call.caller, uuid)) < MANAGE)
    throw new ForbiddenError(msg.insufficientPermission(uuid));
  if (call.cluster.API.UnfreezeProjectRequiresAdmin) {
    throw new UnprocessableError('frozen_by_uuid can only be changed by an admin user, once set');
  }
}

const blank = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

async function trashedAtOrAbove(tx: Db, uuid: string, owner: string): Promise<boolean> {
  const { rows } = await tx.query(
    statement(
      `SELECT 1 FROM hidden_groups WHERE group_uuid = ANY($1::text[]) AND trash_at <= statement_timestamp() LIMIT 1`,
      [[uuid, owner]],
      'freeze_trashed',
    ),
  );
  return rows.length > 0;
}

async function committedRequestBeneath(tx: Db, project: string): Promise<string | null> {
  const { rows } = await tx.query<{ uuid: string }>(
    statement(
      `SELECT r.uuid FROM container_requests r JOIN group_ancestors a ON a.group_uuid = r.owner_uuid
        WHERE a.ancestor_uuid = $1 AND r.state = 'Committed' ORDER BY r.uuid LIMIT 1`,
      [project],
      'freeze_committed',
    ),
  );
  return rows[0]?.uuid ?? null;
}

/**
 * Freezing (setting frozen_by_uuid on a project that is not frozen): the checks of groups.md §7,
 * in the contract's order, against the values after this update.
 */
export async function checkFreeze(
  ctx: WriteContext,
  current: Row | null,
  next: Row,
): Promise<void> {
  const { call, tx } = ctx;
  next['frozen_by_uuid'] = frozenValue(next['frozen_by_uuid']);
  const value = next['frozen_by_uuid'];
  if (value === null || (current && frozenValue(current['frozen_by_uuid']) !== null)) return;
  const uuid = String(next['uuid']);
  if (next['group_class'] !== 'project') {
    throw new UnprocessableError('frozen_by_uuid cannot be modified on a non-project group');
  }
  if (value !== call.caller.uuid) {
    throw new UnprocessableError("frozen_by_uuid can only be set to the current user's UUID");
  }
  if (current && (await levelOf(tx, call.caller, uuid)) < MANAGE)
    throw new ForbiddenError(msg.insufficientPermission(uuid));
  if (
    typeof next['trash_at'] === 'string' ||
    (await trashedAtOrAbove(tx, uuid, String(next['owner_uuid'])))
  ) {
    throw new UnprocessableError('frozen_by_uuid cannot be set on a trashed project');
  }
  const api = call.cluster.API;
  if (api.FreezeProjectRequiresDescription && blank(next['description'])) {
    throw new UnprocessableError('frozen_by_uuid can only be set if description is non-empty');
  }
  const props = (next['properties'] ?? {}) as Record<string, unknown>;
  for (const key of api.FreezeProjectRequiresProperties) {
    if (blank(props[key])) {
      throw new UnprocessableError(
        `frozen_by_uuid can only be set if properties[${key}] value is non-empty`,
      );
    }
  }
  const committed = current ? await committedRequestBeneath(tx, uuid) : null;
  if (committed) {
    throw new UnprocessableError(
      `frozen_by_uuid cannot freeze project containing container request ${committed} with state = Committed`,
    );
  }
}
