/**
 * Users (other-resources.md §5): what non-admins see of other users, activation and the
 * all-users group, the username and admin-flag rules, and who may create, change and delete a
 * user record.
 */
import { useDeployment } from '../harness/deployment';
import { answer, forbidden, insufficient } from '../harness/answers';
import { objectsIn } from '../harness/objects';
import { makeUser, SYSTEM } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;
const { grant } = objectsIn(d);

describe('users as non-admins see them', () => {
  it('shows active users with few attributes, and oneself in full', async () => {
    const me = await makeUser(d.current, { first_name: 'Me', prefs: { p: 1 } });
    const other = await makeUser(d.current, { first_name: 'Other' });
    const inactive = await makeUser(d.current, { is_active: false });
    const them = await me.client.request('GET', `/svc/v1/users/${other.uuid}`);
    expect(Object.keys(them.body).sort()).toEqual(
      [
        'kind',
        'uuid',
        'owner_uuid',
        'email',
        'username',
        'first_name',
        'last_name',
        'full_name',
        'is_active',
        'is_admin',
        'is_invited',
        'can_write',
        'can_manage',
      ].sort(),
    );
    const self = await me.client.request('GET', `/svc/v1/users/${me.uuid}`);
    expect(self.body.prefs).toEqual({ p: 1 });
    const list = await me.client.request('GET', '/svc/v1/users', { query: { limit: 1000 } });
    const uuids = list.body.items.map((u: { uuid: string }) => u.uuid);
    expect(uuids).toEqual(expect.arrayContaining([me.uuid, other.uuid]));
    expect(uuids).not.toContain(inactive.uuid);
  });

  it('joins and leaves the all-users group with activation', async () => {
    const u = await makeUser(d.current, { is_active: false });
    const watcher = await makeUser(d.current);
    expect((await watcher.client.request('GET', `/svc/v1/users/${u.uuid}`)).status).toBe(404);
    await root().request('PUT', `/svc/v1/users/${u.uuid}`, { json: { user: { is_active: true } } });
    expect((await watcher.client.request('GET', `/svc/v1/users/${u.uuid}`)).status).toBe(200);
    await root().request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { is_active: false } },
    });
    expect((await watcher.client.request('GET', `/svc/v1/users/${u.uuid}`)).status).toBe(404);
  });
});

describe('users (other-resources.md §5)', () => {
  it('validate username and the admin flags', async () => {
    for (const username of ['bad name', '1abc', 'a_b']) {
      const res = await root().request('POST', '/svc/v1/users', { json: { user: { username } } });
      expect(answer(res)).toEqual([422, [`username '${username}' is invalid`]]);
    }
    const inactiveAdmin = await root().request('POST', '/svc/v1/users', {
      json: { user: { is_admin: true, is_active: false } },
    });
    expect(answer(inactiveAdmin)).toEqual([422, ['Admin users cannot be inactive']]);
    const demote = await root().request('PUT', `/svc/v1/users/${SYSTEM}`, {
      json: { user: { is_admin: false } },
    });
    expect(answer(demote)).toEqual([422, ['cannot remove admin from the system user']]);
    const system = await root().request('GET', '/svc/v1/users/system');
    expect([system.status, system.body.uuid, system.body.is_admin]).toEqual([200, SYSTEM, true]);
  });

  it('are created and deleted by admins only; a manager edits names and prefs only', async () => {
    const m = await makeUser(d.current);
    const v = await makeUser(d.current);
    const create = await m.client.request('POST', '/svc/v1/users', {
      json: { user: { email: `by-m-${Date.now()}@example.com` } },
    });
    expect(answer(create)).toEqual(forbidden);
    // Readable (all users), but not manageable: no update.
    const stranger = await m.client.request('PUT', `/svc/v1/users/${v.uuid}`, {
      json: { user: { first_name: 'No' } },
    });
    expect(answer(stranger)).toEqual(insufficient(v.uuid));
    await grant(m.uuid, 'can_manage', v.uuid);
    const edit = await m.client.request('PUT', `/svc/v1/users/${v.uuid}`, {
      json: {
        user: { first_name: 'Vee', last_name: 'Jay', prefs: { a: 1 }, is_admin: true },
      },
    });
    expect([edit.status, edit.body.first_name, edit.body.full_name, edit.body.is_admin]).toEqual([
      200,
      'Vee',
      'Vee Jay',
      false,
    ]);
    const stored = await root().request('GET', `/svc/v1/users/${v.uuid}`);
    expect([stored.body.prefs, stored.body.is_admin]).toEqual([{ a: 1 }, false]);
    for (const field of ['username', 'email', 'identity_url']) {
      const res = await m.client.request('PUT', `/svc/v1/users/${v.uuid}`, {
        json: { user: { [field]: field === 'email' ? 'new@example.com' : 'newvalue' } },
      });
      expect([field, ...answer(res)]).toEqual([
        field,
        403,
        [`Forbidden: only admins may change ${field}`],
      ]);
    }
    expect(answer(await m.client.request('DELETE', `/svc/v1/users/${v.uuid}`))).toEqual(forbidden);
    expect((await root().request('GET', `/svc/v1/users/${v.uuid}`)).status).toBe(200);
  });
});
