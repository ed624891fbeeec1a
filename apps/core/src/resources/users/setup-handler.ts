import { links, moreMsg } from '@svc/contract';
import { NotFoundError, UnprocessableError } from '@svc/errors';
import type { Call, Reply } from '../../call';
import { statement, type Db } from '../../db/db';
import { requireAdmin } from '../../permissions/admin';
import { crudHandlers, findVisible, renderAll } from '../common/crud';
import { renderObject } from '../common/render';
import { nowCanonical, type Row } from '../common/row';
import { userRules } from './rules';
import { runSetup } from './setup';
import { baseUsername, freeUsername } from './username';

const objectOption = (call: Call, name: string): Record<string, unknown> | null => {
  const v = call.options[name];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : null;
};

/** A new user from `user` (admin create rules); a username is derived when none is given. */
async function createUser(call: Call, tx: Db, attrs: Record<string, unknown>): Promise<string> {
  if (typeof attrs['email'] !== 'string' || attrs['email'] === '')
    throw new UnprocessableError(moreMsg.requireUserEmail());
  if (attrs['username'] === undefined || attrs['username'] === null) {
    const base = baseUsername(attrs['email'].split('@')[0]);
    attrs['username'] = await freeUsername(
      tx,
      base,
      '',
      call.cluster.Users.AutoSetupUsernameBlacklist,
    );
  }
  const created = await crudHandlers(userRules).create!({
    ...call,
    db: tx,
    options: { attributes: attrs },
  });
  return String((created.body as Row)['uuid']);
}

async function existingUser(tx: Db, uuid: string): Promise<boolean> {
  const { rows } = await tx.query(
    statement('SELECT 1 FROM users WHERE uuid = $1 AND redirect_to_user_uuid IS NULL', [uuid]),
  );
  return rows.length > 0;
}

/**
 * `POST /users/setup` (docs/api/more-resources.md §5.4): an existing user (`uuid`) or a new one
 * (`user`) gets the setup procedure, in one transaction. Answers the links and the user, each
 * rendered as its own get renders it.
 */
export async function setupHandler(call: Call): Promise<Reply> {
  requireAdmin(call);
  const uuidOption = call.options['uuid'];
  const attrs = objectOption(call, 'user');
  const result = await call.db.transaction(async (tx) => {
    let uuid: string;
    if (typeof uuidOption === 'string' && uuidOption !== '') {
      if (!(await existingUser(tx, uuidOption))) throw new NotFoundError();
      uuid = uuidOption;
    } else if (attrs && Object.keys(attrs).length > 0) {
      uuid = await createUser(call, tx, attrs);
    } else {
      throw new UnprocessableError(moreMsg.requiredUuidOrUser());
    }
    const txCall = { ...call, db: tx, options: {} };
    const user = await findVisible(txCall, userRules, tx, uuid, true);
    const vm = call.options['vm_uuid'];
    const send = call.options['send_notification_email'];
    const linkRows = await runSetup({ call, tx, now: nowCanonical() }, user, {
      vmUuid: typeof vm === 'string' ? vm : null,
      sendEmail: typeof send === 'boolean' ? send : null,
    });
    const rendered = await renderAll(
      txCall,
      userRules,
      [await findVisible(txCall, userRules, tx, uuid, false)],
      null,
      false,
    );
    return [...linkRows.map((l) => renderObject(links, l, null, false)), rendered[0]];
  });
  return { body: { kind: 'svc#HashList', items: result } };
}
