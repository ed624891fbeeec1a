/**
 * User setup, activation, agreements, unsetup and the notification email (docs/api/more-resources.md
 * §5.1–§5.5, §5.7, §6), against a local SMTP server.
 */
import { useDeployment } from '../harness/deployment';
import { makeCollection } from '../harness/containers';
import { answer, forbidden } from '../harness/answers';
import { mailMatching, useSmtpServer } from '../harness/smtp';
import { sshPublicKey } from '../harness/ssh-keys';
import { makeUser, SYSTEM, type TestUser } from '../harness/users';

const smtp = useSmtpServer();
const d = useDeployment({
  configure: (_id, section) => {
    section['Mail'] = { SMTPServer: smtp.address };
    section['Users'] = {
      NewUserNotificationRecipients: ['admins@example.com'],
      NewInactiveUserNotificationRecipients: ['gatekeepers@example.com'],
      UserProfileNotificationAddress: 'profiles@example.com',
      UserNotifierEmailBcc: ['audit@example.com'],
      UserNotifierEmailFrom: 'welcome@example.com',
      AdminNotifierEmailFrom: 'notices@example.com',
      EmailSubjectPrefix: '[T] ',
      UserSetupMailText: 'Hello ${full_name} <${email}> as ${username}.',
    };
  },
});
const root = () => d.current.root;
const ALL_USERS = 'home1-j7d0g-fffffffffffffff';
let n = 0;
const email = () => `setup${++n}-${Date.now()}@example.com`;

const newVm = async () =>
  (
    await root().request('POST', '/svc/v1/virtual_machines', {
      json: { virtual_machine: { hostname: `vm${++n}` } },
    })
  ).body.uuid as string;
const setup = (params: Record<string, unknown>, client = root()) =>
  client.request('POST', '/svc/v1/users/setup', { json: params });
const user = async (uuid: string) => (await root().request('GET', `/svc/v1/users/${uuid}`)).body;
const membership = async (uuid: string) =>
  (
    await root().request('GET', '/svc/v1/links', {
      query: {
        filters: JSON.stringify([
          ['tail_uuid', '=', uuid],
          ['head_uuid', '=', ALL_USERS],
        ]),
      },
    })
  ).body.items;

describe('setup (§5.1, §5.4)', () => {
  it('gives an existing user its login and memberships, without activating it, and welcomes it once', async () => {
    const u = await makeUser(d.current, {
      is_active: false,
      username: `al${Date.now()}`,
      first_name: 'Al',
      last_name: 'Ice',
    });
    const addr = (await user(u.uuid)).email;
    const vm = await newVm();
    const res = await setup({ uuid: u.uuid, vm_uuid: vm, send_notification_email: true });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('svc#HashList');
    const [login, write, read, me] = res.body.items;
    expect(res.body.items).toHaveLength(4);
    expect(login).toMatchObject({
      kind: 'svc#link',
      name: 'can_login',
      tail_uuid: u.uuid,
      head_uuid: vm,
    });
    expect(login.properties).toEqual({ username: (await user(u.uuid)).username });
    expect(write).toMatchObject({ name: 'can_write', tail_uuid: u.uuid, head_uuid: ALL_USERS });
    expect(read).toMatchObject({ name: 'can_read', tail_uuid: ALL_USERS, head_uuid: u.uuid });
    expect(me).toMatchObject({
      kind: 'svc#user',
      uuid: u.uuid,
      is_active: false,
      is_invited: true,
    });
    const welcome = await mailMatching(smtp.received, (m) => m.recipients.includes(addr));
    expect(welcome).toMatchObject({
      from: 'welcome@example.com',
      subject: 'Welcome to svc - account enabled',
    });
    expect(welcome.recipients.sort()).toEqual(['audit@example.com', addr].sort());
    expect(welcome.raw).toContain(`Hello Al Ice <${addr}> as ${me.username}.`);
    const again = await setup({ uuid: u.uuid, vm_uuid: vm, send_notification_email: true });
    expect(again.body.items.map((i: any) => i.uuid)).toEqual(
      res.body.items.map((i: any) => i.uuid),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.filter((m) => m.recipients.includes(addr))).toHaveLength(1);
  });

  it('creates a new user from `user`, deriving a username no blacklist forbids', async () => {
    const res = await setup({ user: { email: `root@${Date.now()}.example.com` } });
    expect(res.status).toBe(200);
    const created = res.body.items[res.body.items.length - 1];
    expect(res.body.items).toHaveLength(3);
    expect(created).toMatchObject({ kind: 'svc#user', is_active: false, is_invited: true });
    expect(created.username).toMatch(/^root\d+$/);
  });

  it('refuses, in order, and changes nothing when a step fails', async () => {
    const u = await makeUser(d.current, { is_active: false, username: `bo${Date.now()}` });
    expect(answer(await setup({ uuid: u.uuid }, u.client))).toEqual(forbidden);
    expect(answer(await setup({ uuid: 'home1-tpzed-0000000000nosuch' }))).toEqual([
      404,
      ['Object not found'],
    ]);
    expect(answer(await setup({ user: {} }))).toEqual([422, ['Required uuid or user']]);
    expect(answer(await setup({}))).toEqual([422, ['Required uuid or user']]);
    expect(answer(await setup({ user: { first_name: 'x' } }))).toEqual([
      422,
      ['Require user email'],
    ]);
    const vm = 'home1-2x53u-0000000000nosuch';
    expect(answer(await setup({ uuid: u.uuid, vm_uuid: vm }))).toEqual([
      422,
      [`No vm found for ${vm}`],
    ]);
    expect(await membership(u.uuid)).toEqual([]);
  });
});

describe('notification email (§5.7)', () => {
  it('tells admins of new users, invited or not, and of a first profile', async () => {
    const inactive = email();
    await root().request('POST', '/svc/v1/users', { json: { user: { email: inactive } } });
    const notice = await mailMatching(smtp.received, (m) => m.raw.includes(inactive));
    expect(notice).toMatchObject({
      from: 'notices@example.com',
      recipients: ['gatekeepers@example.com'],
      subject: '[T] New inactive user notification',
    });
    const active = email();
    const made = await root().request('POST', '/svc/v1/users', {
      json: { user: { email: active, is_active: true } },
    });
    const created = await mailMatching(
      smtp.received,
      (m) => m.raw.includes(active) && m.subject.includes('New user'),
    );
    expect(created).toMatchObject({
      recipients: ['admins@example.com'],
      subject: '[T] New user created notification',
    });
    expect(created.raw).toContain(made.body.uuid);
    const u = await makeUser(d.current);
    const addr = (await user(u.uuid)).email;
    await u.client.request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { prefs: { profile: { org: 'x' } } } },
    });
    const profile = await mailMatching(
      smtp.received,
      (m) => m.subject === `Profile created by ${addr}`,
    );
    expect(profile.recipients).toEqual(['profiles@example.com']);
  });
});

describe('user agreements (§6) and activate (§5.3)', () => {
  let agreements: string[];
  beforeAll(async () => {
    agreements = [];
    for (let i = 0; i < 2; i++) {
      const c = await makeCollection(root(), { name: `terms ${i} ${Date.now()}` });
      await root().request('POST', '/svc/v1/links', {
        json: {
          link: {
            owner_uuid: SYSTEM,
            link_class: 'signature',
            name: 'require',
            tail_uuid: SYSTEM,
            head_uuid: c.uuid,
          },
        },
      });
      agreements.push(c.uuid);
    }
    agreements.sort();
  });

  it('are listed whole to invited users, sorted, and hidden from the others', async () => {
    const stranger = await makeUser(d.current, { is_active: false });
    const none = await stranger.client.request('GET', '/svc/v1/user_agreements');
    expect([none.status, none.body.items]).toEqual([200, []]);
    const invited = await makeUser(d.current, { is_active: false });
    await setup({ uuid: invited.uuid });
    const list = await invited.client.request('GET', '/svc/v1/user_agreements');
    expect(list.body).toMatchObject({
      kind: 'svc#collectionList',
      offset: 0,
      limit: agreements.length,
      items_available: agreements.length,
    });
    expect(list.body.items.map((c: any) => c.uuid)).toEqual(agreements);
    expect(list.body.items[0].manifest_text).toMatch(/\+A[0-9a-f]+@/);
    const picked = await invited.client.request('GET', '/svc/v1/user_agreements', {
      query: { select: JSON.stringify(['uuid']), count: 'none' },
    });
    expect(picked.body.items[0]).toEqual({ kind: 'svc#collection', uuid: agreements[0] });
    expect('items_available' in picked.body).toBe(false);
  });

  it('activate: invited users sign every agreement first; admins too', async () => {
    const u = await makeUser(d.current, { is_active: false });
    const other = await makeUser(d.current);
    const activate = (who: TestUser | null, uuid: string) =>
      (who ? who.client : root()).request('POST', `/svc/v1/users/${uuid}/activate`);
    expect(answer(await activate(u, 'home1-tpzed-0000000000nosuch'))).toEqual([
      404,
      ['Object not found'],
    ]);
    expect(answer(await activate(u, other.uuid))).toEqual(forbidden);
    const already = await activate(other, other.uuid);
    expect([already.status, already.body.is_active]).toEqual([200, true]);
    expect(answer(await activate(u, u.uuid))).toEqual([
      422,
      ['Cannot activate without being invited.'],
    ]);
    await setup({ uuid: u.uuid });
    const list = `[${agreements.map((a) => `"${a}"`).join(', ')}]`;
    expect(answer(await activate(u, u.uuid))).toEqual([
      403,
      [`Cannot activate without user agreements ${list}.`],
    ]);
    expect(answer(await activate(null, u.uuid))).toEqual([
      403,
      [`Cannot activate without user agreements ${list}.`],
    ]);
    const sign = (uuid: string) =>
      u.client.request('POST', '/svc/v1/user_agreements/sign', { json: { uuid } });
    const first = await sign(agreements[0]!);
    expect(first.body).toMatchObject({
      kind: 'svc#link',
      link_class: 'signature',
      name: 'click',
      tail_uuid: u.uuid,
      head_uuid: agreements[0],
      owner_uuid: SYSTEM,
    });
    expect(answer(await activate(u, u.uuid))).toEqual([
      403,
      [`Cannot activate without user agreements ["${agreements[1]}"].`],
    ]);
    await sign(agreements[1]!);
    const second = await sign(agreements[1]!);
    expect(second.body.uuid).not.toBe(first.body.uuid);
    const sigs = await u.client.request('GET', '/svc/v1/user_agreements/signatures');
    expect(sigs.body.items.map((l: any) => l.head_uuid).sort()).toEqual(
      [agreements[0], agreements[1], agreements[1]].sort(),
    );
    const asAdmin = await root().request('GET', '/svc/v1/user_agreements/signatures', {
      query: { uuid: u.uuid },
    });
    expect(asAdmin.body.items).toHaveLength(3);
    const notOne = await u.client.request('POST', '/svc/v1/user_agreements/sign', {
      json: { uuid: other.uuid },
    });
    expect(answer(notOne)).toEqual([422, [`uuid '${other.uuid}' is not a user agreement`]]);
    const done = await activate(u, u.uuid);
    expect([done.status, done.body.is_active]).toEqual([200, true]);
    expect(await membership(u.uuid)).toHaveLength(1);
  });

  it('are managed through collections and links: admins get 422, others 403', async () => {
    const u = await makeUser(d.current);
    const got = await root().request('GET', `/svc/v1/user_agreements/${agreements[0]}`);
    expect([got.status, got.body.kind, got.body.uuid]).toEqual([
      200,
      'svc#collection',
      agreements[0],
    ]);
    const plain = await makeCollection(root());
    expect((await root().request('GET', `/svc/v1/user_agreements/${plain.uuid}`)).status).toBe(404);
    expect(
      answer(await u.client.request('GET', `/svc/v1/user_agreements/${agreements[0]}`)),
    ).toEqual(forbidden);
    const manage = [422, ['Manage user agreements via Collections and Links instead.']];
    expect(
      answer(
        await root().request('POST', '/svc/v1/user_agreements', { json: { user_agreement: {} } }),
      ),
    ).toEqual(manage);
    expect(
      answer(
        await root().request('PUT', `/svc/v1/user_agreements/${agreements[0]}`, {
          json: { user_agreement: {} },
        }),
      ),
    ).toEqual(manage);
    expect(
      answer(await root().request('DELETE', `/svc/v1/user_agreements/${agreements[0]}`)),
    ).toEqual(manage);
    expect(
      answer(
        await u.client.request('POST', '/svc/v1/user_agreements', { json: { user_agreement: {} } }),
      ),
    ).toEqual(forbidden);
  });
});

describe('unsetup (§5.5)', () => {
  it('takes away links, signatures, tokens, keys, prefs and flags, and keeps the rest', async () => {
    const u = await makeUser(d.current, { is_admin: true, prefs: { a: 1 } }, { scopes: ['all'] });
    const project = (
      await u.client.request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project', name: `kept ${Date.now()}` } },
      })
    ).body.uuid;
    const key = await u.client.request('POST', '/svc/v1/authorized_keys', {
      json: { authorized_key: { public_key: sshPublicKey() } },
    });
    expect(key.status).toBe(200);
    const shared = await makeCollection(root());
    await root().request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: u.uuid,
          head_uuid: shared.uuid,
        },
      },
    });
    await root().request('POST', '/svc/v1/links', {
      json: {
        link: {
          owner_uuid: SYSTEM,
          link_class: 'signature',
          name: 'click',
          tail_uuid: u.uuid,
          head_uuid: shared.uuid,
        },
      },
    });
    expect(answer(await u.client.request('POST', `/svc/v1/users/${SYSTEM}/unsetup`))).toEqual([
      422,
      ['System root user cannot be deactivated'],
    ]);
    const plain = await makeUser(d.current);
    expect(answer(await plain.client.request('POST', `/svc/v1/users/${u.uuid}/unsetup`))).toEqual(
      forbidden,
    );
    expect(
      answer(await root().request('POST', '/svc/v1/users/home1-tpzed-0000000000nosuch/unsetup')),
    ).toEqual([404, ['Object not found']]);
    const res = await root().request('POST', `/svc/v1/users/${u.uuid}/unsetup`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uuid: u.uuid,
      is_active: false,
      is_admin: false,
      is_invited: false,
      prefs: {},
    });
    const links = await root().request('GET', '/svc/v1/links', {
      query: { filters: JSON.stringify([['tail_uuid', '=', u.uuid]]) },
    });
    expect(links.body.items).toEqual([]);
    const toUser = await root().request('GET', '/svc/v1/links', {
      query: { filters: JSON.stringify([['head_uuid', '=', u.uuid]]) },
    });
    expect(toUser.body.items).toEqual([]);
    expect((await u.client.request('GET', '/svc/v1/users/current')).status).toBe(401);
    expect((await root().request('GET', `/svc/v1/authorized_keys/${key.body.uuid}`)).status).toBe(
      404,
    );
    expect((await root().request('GET', `/svc/v1/groups/${project}`)).status).toBe(200);
  });
});
