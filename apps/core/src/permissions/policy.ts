import { msg } from '@svc/contract';
import { ForbiddenError } from '@svc/errors';
import type { Sql } from '@svc/list-engine';
import type { Call } from '../call';
import type { Db } from '../db/db';
import { levelOf } from './level-of';
import { type Level } from './levels';
import { checkCreateOwner, checkOwnerChange } from './owner-rules';

export type Purpose = 'read' | 'remove';
export type WriteOp = 'update' | 'delete';

/**
 * Who may see and change a resource's objects. Every resource declares one; the generic read
 * path ANDs `visible` into every query and the write path calls `create`/`write` first.
 */
export interface AccessPolicy {
  visible(call: Call, purpose: Purpose): Sql[];
  /** Before a create; `attrs` are the raw client attributes. */
  create(call: Call, tx: Db, attrs: Readonly<Record<string, unknown>>): Promise<void>;
  /** Before an update (`attrs` given) or a delete (`attrs` null) of a visible object. */
  write(
    call: Call,
    tx: Db,
    row: Readonly<Record<string, unknown>>,
    attrs: Readonly<Record<string, unknown>> | null,
    op: WriteOp,
  ): Promise<void>;
}

export function requireActive(call: Call): void {
  if (!call.caller.isActive) throw new ForbiddenError(msg.userNotActive());
}

/** 403 "Forbidden: insufficient permission to modify <uuid>" below `level`. */
export async function requireLevel(call: Call, tx: Db, uuid: string, level: Level): Promise<void> {
  if ((await levelOf(tx, call.caller, uuid)) < level)
    throw new ForbiddenError(msg.insufficientPermission(uuid));
}

/** The owner rules of create (permissions.md §2). */
export async function checkOwnerOnCreate(
  call: Call,
  tx: Db,
  attrs: Readonly<Record<string, unknown>>,
): Promise<void> {
  const owner = attrs['owner_uuid'];
  if (typeof owner === 'string' && owner !== '') await checkCreateOwner(tx, call, owner);
}

/** The owner rules of an update that moves the object. */
export async function checkOwnerOnUpdate(
  call: Call,
  tx: Db,
  row: Readonly<Record<string, unknown>>,
  attrs: Readonly<Record<string, unknown>> | null,
): Promise<void> {
  const owner = attrs?.['owner_uuid'];
  if (typeof owner !== 'string' || owner === row['owner_uuid']) return;
  await checkOwnerChange(tx, call, String(row['uuid']), String(row['owner_uuid']), owner);
}
