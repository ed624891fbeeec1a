import type { ClusterConfig } from '@svc/config';
import type { Call } from '../../call';
import { queueMail } from '../../mail/queue';
import type { Row } from '../common/row';

const fullName = (u: Row): string =>
  [u['first_name'], u['last_name']].filter((p) => typeof p === 'string' && p !== '').join(' ');

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `${full_name}`, `${email}`, `${username}` and `${url}` of the welcome text. */
export function welcomeText(cluster: Readonly<ClusterConfig>, u: Row): string {
  const values: Record<string, string> = {
    full_name: fullName(u),
    email: str(u['email']),
    username: str(u['username']),
    url: cluster.ExternalURL,
  };
  return cluster.Users.UserSetupMailText.replace(/\$\{(full_name|email|username|url)\}/g, (_m, k) =>
    String(values[k as string]),
  );
}

/** The welcome email of a user newly set up (sent when the user has an email). */
export function queueWelcome(call: Call, u: Row): void {
  const { Users } = call.cluster;
  if (Users.UserSetupMailText === '' || typeof u['email'] !== 'string' || u['email'] === '') return;
  queueMail(call, {
    from: Users.UserNotifierEmailFrom,
    to: [u['email']],
    bcc: Users.UserNotifierEmailBcc,
    subject: 'Welcome to svc - account enabled',
    text: welcomeText(call.cluster, u),
  });
}

const aboutUser = (u: Row): string =>
  `uuid: ${String(u['uuid'])}\nfull name: ${fullName(u)}\nemail: ${str(u['email'])}\n`;

/** Admins hear of every new user record: invited ones and the others, on separate lists. */
export function queueNewUserNotice(call: Call, u: Row, invited: boolean): void {
  const { Users } = call.cluster;
  const prefix = Users.EmailSubjectPrefix;
  const subject = !invited
    ? `${prefix}New inactive user notification`
    : Users.AutoSetupNewUsers
      ? `${prefix}New user created and setup notification`
      : `${prefix}New user created notification`;
  queueMail(call, {
    from: Users.AdminNotifierEmailFrom,
    to: invited ? Users.NewUserNotificationRecipients : Users.NewInactiveUserNotificationRecipients,
    subject,
    text: `A new user has been created.\n${aboutUser(u)}`,
  });
}

/** A user's prefs gained a `profile` for the first time. */
export function queueProfileNotice(call: Call, u: Row): void {
  const { Users } = call.cluster;
  const address = Users.UserProfileNotificationAddress;
  if (address === '') return;
  queueMail(call, {
    from: Users.AdminNotifierEmailFrom,
    to: [address],
    subject: `Profile created by ${str(u['email'])}`,
    text: `A user created a profile.\n${aboutUser(u)}profile: ${JSON.stringify((u['prefs'] as Row)['profile'])}\n`,
  });
}
