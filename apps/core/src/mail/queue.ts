import type { Call } from '../call';
import { sendMail } from '../cluster-services';
import type { MailMessage } from './mailer';

const KEY = 'mail';

/**
 * Mail a write decides to send goes out only once the write is committed: queued on the call,
 * sent by `sendQueuedMail` after the transaction (a rolled-back setup tells nobody anything).
 */
export function queueMail(call: Call, message: MailMessage): void {
  const queued = (call.locals[KEY] ??= []) as MailMessage[];
  queued.push(message);
}

/** After commit: sends what the call's hooks queued (calls made together may share `locals`). */
export function sendQueuedMail(call: Pick<Call, 'cluster' | 'locals'>): void {
  const queued = call.locals[KEY] as MailMessage[] | undefined;
  if (!queued || queued.length === 0) return;
  call.locals[KEY] = [];
  sendMail(call.cluster, queued);
}
