/**
 * Shell access (docs/api/more-resources.md §3, §4): SSH keys and who may attach them to whom, shell node
 * records, can_login links, and the logins a shell node asks for.
 */
import { useDeployment } from '../harness/deployment';
import { answer, forbidden, inactive } from '../harness/answers';
import { sshPublicKey } from '../harness/ssh-keys';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;

const invalid = (detail: string) => [400, [`Public key does not appear to be valid: ${detail}`]];

const addKey = (u: TestUser, attrs: Record<string, unknown>) =>
  u.client.request('POST', '/svc/v1/authorized_keys', { json: { authorized_key: attrs } });

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await makeUser(d.current, { username: `alice${Date.now()}` });
  bob = await makeUser(d.current);
});

describe('authorized keys (§3)', () => {
  it('belong to the caller by default and keep the key exactly as given', async () => {
    const text = `${sshPublicKey('ssh-rsa')}\n`;
    const res = await addKey(alice, { public_key: text, key_type: 'SSH', name: 'laptop' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'svc#authorizedKey',
      owner_uuid: alice.uuid,
      authorized_user_uuid: alice.uuid,
      public_key: text,
      key_type: 'SSH',
      expires_at: null,
    });
    expect(res.body.uuid).toMatch(/^home1-fngyi-/);
    for (const type of [
      'ssh-ed25519',
      'ecdsa-sha2-nistp256',
      'sk-ssh-ed25519@openssh.com',
    ] as const)
      expect((await addKey(alice, { public_key: sshPublicKey(type) })).status).toBe(200);
  });

  it('refuse keys that are not one valid line, first failing rule first', async () => {
    const good = sshPublicKey('ssh-rsa');
    const [type, blob, comment] = good.split(' ');
    const cases: [string, unknown][] = [
      [`${good}\n${sshPublicKey()}`, invalid('extra data after key')],
      [`${type} ${blob}\r${comment}`, invalid('extra data after key')],
      ['ssh-rsa AAAAnotakey alice', invalid('ssh: no key found')],
      [`ssh-foo ${Buffer.from('nonsense').toString('base64')}`, invalid('ssh: no key found')],
      [`${type}\t${blob}`, invalid('no leading type field')],
      [
        `ssh-dss ${blob} ${comment}`,
        invalid('leading type field "ssh-dss" does not match actual key type "ssh-rsa"'),
      ],
      [
        `no-pty ${type} ${blob}`,
        invalid('leading type field "no-pty" does not match actual key type "ssh-rsa"'),
      ],
    ];
    for (const [key, expected] of cases) {
      expect([key, ...answer(await addKey(alice, { public_key: key }))]).toEqual([
        key,
        ...(expected as unknown[]),
      ]);
    }
  });

  it('are unique by type and key, whatever the comment', async () => {
    const key = sshPublicKey('ssh-ed25519', 'first');
    expect((await addKey(alice, { public_key: key })).status).toBe(200);
    const again = await addKey(bob, { public_key: key.replace('first', 'second') });
    expect(answer(again)).toEqual([
      422,
      ['public_key already exists in the database, use a different key.'],
    ]);
  });

  it('attach to another user only by an admin; the user must exist', async () => {
    const theft = await addKey(alice, {
      public_key: sshPublicKey(),
      authorized_user_uuid: bob.uuid,
    });
    expect(answer(theft)).toEqual([
      403,
      ['Forbidden: only admins may attach a key to another user'],
    ]);
    const mine = await addKey(alice, { public_key: sshPublicKey() });
    const moved = await alice.client.request('PUT', `/svc/v1/authorized_keys/${mine.body.uuid}`, {
      json: { authorized_key: { authorized_user_uuid: bob.uuid } },
    });
    expect(answer(moved)).toEqual([
      403,
      ['Forbidden: only admins may attach a key to another user'],
    ]);
    const missing = 'home1-tpzed-000000000nosuch';
    expect(answer(await addKey(alice, { authorized_user_uuid: missing }))).toEqual([
      422,
      [`authorized_user_uuid '${missing}' not found`],
    ]);
    const byAdmin = await root().request('POST', '/svc/v1/authorized_keys', {
      json: { authorized_key: { public_key: sshPublicKey(), authorized_user_uuid: bob.uuid } },
    });
    expect([byAdmin.status, byAdmin.body.authorized_user_uuid]).toEqual([200, bob.uuid]);
  });

  it('are ordinary owned objects: others do not see or change them; inactive users cannot add', async () => {
    const key = (await addKey(alice, { public_key: sshPublicKey() })).body.uuid;
    expect((await bob.client.request('GET', `/svc/v1/authorized_keys/${key}`)).status).toBe(404);
    expect((await bob.client.request('DELETE', `/svc/v1/authorized_keys/${key}`)).status).toBe(404);
    const sleeper = await makeUser(d.current, { is_active: false });
    expect(answer(await addKey(sleeper, { public_key: sshPublicKey() }))).toEqual(inactive);
    expect((await alice.client.request('DELETE', `/svc/v1/authorized_keys/${key}`)).status).toBe(
      200,
    );
  });
});

describe('virtual machines and logins (§4)', () => {
  const vm = async (hostname: string) => {
    const res = await root().request('POST', '/svc/v1/virtual_machines', {
      json: { virtual_machine: { hostname } },
    });
    expect(res.status).toBe(200);
    return res.body.uuid as string;
  };
  const login = (user: string, machine: string, properties: Record<string, unknown>) =>
    root().request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_login',
          tail_uuid: user,
          head_uuid: machine,
          properties,
        },
      },
    });

  it('are written by admins only and read through a permission link', async () => {
    const made = await alice.client.request('POST', '/svc/v1/virtual_machines', {
      json: { virtual_machine: { hostname: 'no' } },
    });
    expect(answer(made)).toEqual(forbidden);
    const shell = await vm('shell1.example');
    expect((await alice.client.request('GET', `/svc/v1/virtual_machines/${shell}`)).status).toBe(
      404,
    );
    await login(alice.uuid, shell, { username: 'alice' });
    const seen = await alice.client.request('GET', `/svc/v1/virtual_machines/${shell}`);
    expect([seen.status, seen.body.kind, seen.body.hostname]).toEqual([
      200,
      'svc#virtualMachine',
      'shell1.example',
    ]);
    const edit = await alice.client.request('PUT', `/svc/v1/virtual_machines/${shell}`, {
      json: { virtual_machine: { hostname: 'mine' } },
    });
    expect(answer(edit)).toEqual(forbidden);
    // A login of one's own does not let one make logins (that needs can_manage on the machine).
    await login(bob.uuid, shell, { username: 'bob' });
    const byBob = await bob.client.request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_login',
          tail_uuid: bob.uuid,
          head_uuid: shell,
          properties: { username: 'root' },
        },
      },
    });
    expect(answer(byBob)).toEqual([403, [`Forbidden: insufficient permission to modify ${shell}`]]);
  });

  it('a second login of one account answers the first; deleting the machine deletes its logins', async () => {
    const shell = await vm('shell2.example');
    const first = await login(alice.uuid, shell, { username: 'al' });
    const second = await login(alice.uuid, shell, { username: 'al', groups: ['docker'] });
    expect([second.status, second.body.uuid, second.body.properties]).toEqual([
      200,
      first.body.uuid,
      { username: 'al' },
    ]);
    const other = await login(alice.uuid, shell, { username: 'al2' });
    expect(other.body.uuid).not.toBe(first.body.uuid);
    expect((await root().request('DELETE', `/svc/v1/virtual_machines/${shell}`)).status).toBe(200);
    const left = await root().request('GET', '/svc/v1/links', {
      query: { filters: JSON.stringify([['head_uuid', '=', shell]]) },
    });
    expect(left.body.items).toEqual([]);
  });

  it('logins: one item per login and key (or none), in a fixed order; admins only', async () => {
    const shell = await vm('shell3.example');
    const carol = await makeUser(d.current);
    const k1 = (await addKey(alice, { public_key: sshPublicKey() })).body;
    await login(alice.uuid, shell, { username: 'alice', groups: ['docker', 'wheel'] });
    await login(carol.uuid, shell, { username: 'carol', groups: 'not a list' });
    await login(bob.uuid, shell, { username: '' });
    await login(bob.uuid, shell, { other: 'no username' });
    const res = await root().request('GET', `/svc/v1/virtual_machines/${shell}/logins`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('svc#HashList');
    const aliceKeys = (
      await root().request('GET', '/svc/v1/authorized_keys', {
        query: {
          filters: JSON.stringify([['authorized_user_uuid', '=', alice.uuid]]),
          order: JSON.stringify(['uuid asc']),
          limit: 100,
        },
      })
    ).body.items;
    expect(aliceKeys.map((k: any) => k.uuid)).toContain(k1.uuid);
    const expected = [
      ...aliceKeys.map((k: any) => ({
        username: 'alice',
        hostname: 'shell3.example',
        groups: ['docker', 'wheel'],
        public_key: k.public_key,
        user_uuid: alice.uuid,
        virtual_machine_uuid: shell,
        authorized_key_uuid: k.uuid,
      })),
      {
        username: 'carol',
        hostname: 'shell3.example',
        groups: [],
        public_key: null,
        user_uuid: carol.uuid,
        virtual_machine_uuid: shell,
        authorized_key_uuid: null,
      },
    ].sort((a, b) => (a.user_uuid < b.user_uuid ? -1 : a.user_uuid > b.user_uuid ? 1 : 0));
    expect(res.body.items).toEqual(expected);
    const all = await root().request('GET', '/svc/v1/virtual_machines/get_all_logins');
    const mine = all.body.items.filter((i: any) => i.virtual_machine_uuid === shell);
    expect(mine).toEqual(expected);
    expect(
      answer(await alice.client.request('GET', `/svc/v1/virtual_machines/${shell}/logins`)),
    ).toEqual(forbidden);
    expect(
      answer(await alice.client.request('GET', '/svc/v1/virtual_machines/get_all_logins')),
    ).toEqual(forbidden);
    const none = await root().request(
      'GET',
      '/svc/v1/virtual_machines/home1-2x53u-000000000nosuch/logins',
    );
    expect(answer(none)).toEqual([404, ['Object not found']]);
  });
});
