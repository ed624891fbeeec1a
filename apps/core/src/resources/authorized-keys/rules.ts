import { authorizedKeys, moreMsg, msg } from '@svc/contract';
import { BadRequestError, ForbiddenError, UnprocessableError } from '@svc/errors';
import { statement, type Db } from '../../db/db';
import { ownedPolicy } from '../../permissions/policies';
import type { Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { parseAuthorizedKey } from './public-key';

const invalid = (detail: string) => new BadRequestError(moreMsg.invalidKey(detail));

/** The rules of `public_key` (docs/api/more-resources.md §3), first failure first; returns the blob. */
export function checkPublicKey(value: string): string {
  const text = value.trim();
  if (/[\r\n]/.test(text)) throw invalid(moreMsg.keyExtraData());
  const key = parseAuthorizedKey(text);
  if (!key) throw invalid(moreMsg.keyNotFound());
  if (!text.includes(' ')) throw invalid(moreMsg.keyNoTypeField());
  const field = text.split(' ')[0]!;
  if (field !== key.type) throw invalid(moreMsg.keyTypeMismatch(field, key.type));
  return key.blob;
}

/** Two keys are the same key when type and blob are equal, comments aside. */
async function checkUnique(tx: Db, uuid: string, blob: string): Promise<void> {
  const { rows } = await tx.query<{ public_key: string }>(
    statement(
      `SELECT public_key FROM authorized_keys
        WHERE uuid <> $1 AND strpos(public_key, $2) > 0`,
      [uuid, blob],
    ),
  );
  if (rows.some((r) => parseAuthorizedKey(r.public_key)?.blob === blob))
    throw new UnprocessableError(moreMsg.keyExists());
}

/** authorized_user_uuid: an existing user, and the caller's own unless the caller is an admin. */
async function checkAuthorizedUser(ctx: WriteContext, row: Row): Promise<void> {
  const user = String(row['authorized_user_uuid']);
  const { rows } = await ctx.tx.query(statement('SELECT 1 FROM users WHERE uuid = $1', [user]));
  if (rows.length === 0)
    throw new UnprocessableError(msg.referenceNotFound('authorized_user_uuid', user));
  if (!ctx.call.caller.isAdmin && user !== ctx.call.caller.uuid)
    throw new ForbiddenError(moreMsg.keyForAnotherUser());
}

async function checkKey(ctx: WriteContext, row: Row, previous: Row | null): Promise<void> {
  if (previous === null || row['authorized_user_uuid'] !== previous['authorized_user_uuid'])
    await checkAuthorizedUser(ctx, row);
  const key = row['public_key'];
  if (typeof key === 'string' && key !== '' && key !== previous?.['public_key']) {
    await checkUnique(ctx.tx, String(row['uuid']), checkPublicKey(key));
  }
}

/** SSH keys: ordinary owned objects with their own key and user checks. */
export const authorizedKeyRules: ResourceRules = {
  resource: authorizedKeys,
  policy: ownedPolicy('authorized_keys'),
  async prepareCreate(ctx, row) {
    row['authorized_user_uuid'] ??= ctx.call.caller.uuid;
    await checkKey(ctx, row, null);
  },
  async prepareUpdate(ctx, current, next) {
    next['authorized_user_uuid'] ??= ctx.call.caller.uuid;
    if (!ctx.call.caller.isAdmin) await checkAuthorizedUser(ctx, next);
    await checkKey(ctx, next, current);
  },
};
