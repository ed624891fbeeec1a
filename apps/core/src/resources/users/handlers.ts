import type { Handler } from '../../call';
import { sendQueuedMail } from '../../mail/queue';
import { crudHandlers } from '../common/crud';
import { activate } from './activate';
import { merge } from './merge';
import { userRules } from './rules';
import { setupHandler } from './setup-handler';
import { unsetup } from './unsetup';

/** A handler whose writes may queue mail: the mail goes once its transaction is committed. */
const mailing =
  (handler: Handler): Handler =>
  async (call) => {
    const reply = await handler(call);
    sendQueuedMail(call);
    return reply;
  };

const generic = crudHandlers(userRules);

/** Users' operations beyond the generic ones, and the generic writes that may send mail. */
export const userHandlers: Readonly<Record<string, Handler>> = {
  create: mailing(generic.create!),
  update: mailing(generic.update!),
  activate: mailing(activate),
  setup: mailing(setupHandler),
  unsetup,
  merge,
};
