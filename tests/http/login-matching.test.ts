import { randomAlnum } from '@svc/ids';
import { useDeployment } from '../harness/deployment';
import { login } from '../harness/users';

/**
 * Which user a login is (auth.md §11 step 1): only local users (uuid prefix ClusterID) are
 * matched by email. A mirror of another cluster's user is never taken over by a login.
 */

const USERS = {
  mira: { Email: 'mira@example.com', Password: 'mira-pw' },
  twain: { Email: 'twain@example.com', Password: 'twain-pw' },
  lola: { Email: 'lola@example.com', Password: 'lola-pw' },
};
const d = useDeployment({
  configure: (_id, c) => {
    c['Login'] = { Test: { Enable: true, Users: USERS } };
    c['Users'] = { NewUsersAreActive: true };
  },
});
const db = () => d.current.running.cores[0]!.db;

/** A user record as federation stores a mirror of another cluster's user: straight in the table. */
async function insertMirror(cluster: string, email: string, username: string | null) {
  const uuid = `${cluster}-tpzed-${randomAlnum(15)}`;
  await db().query({
    text: `INSERT INTO users (uuid, owner_uuid, created_at, modified_at, email, username, is_active)
           VALUES ($1, $2, now(), now(), $3, $4, true)`,
    values: [uuid, `${cluster}-tpzed-000000000000000`, email, username],
  });
  return uuid;
}

const userRow = async (uuid: string) =>
  (
    await db().query<Record<string, unknown>>({
      text: 'SELECT uuid, email, username, identity_url, modified_at FROM users WHERE uuid = $1',
      values: [uuid],
    })
  ).rows[0];

async function loggedInUser(username: string, password: string) {
  const res = await login(d.current, username, password);
  expect(res.status).toBe(200);
  const me = await d.current
    .client(`v2/${res.body.uuid}/${res.body.api_token}`)
    .request('GET', '/svc/v1/users/current');
  expect(me.status).toBe(200);
  return me.body as Record<string, unknown>;
}

describe('login matching (auth.md §11 step 1)', () => {
  it('creates a new local user when the email matches only a mirrored remote user', async () => {
    const mirror = await insertMirror('rmt02', 'Mira@Example.com', 'mira');
    const before = await userRow(mirror);
    const me = await loggedInUser('mira', 'mira-pw');
    expect(me['uuid']).not.toBe(mirror);
    expect(String(me['uuid'])).toMatch(/^home1-tpzed-[0-9a-z]{15}$/);
    expect(me).toMatchObject({
      email: 'mira@example.com',
      username: 'mira2',
      identity_url: 'test:mira',
    });
    expect(await userRow(mirror)).toEqual(before);
    const again = await loggedInUser('mira', 'mira-pw');
    expect(again['uuid']).toBe(me['uuid']);
  });

  it('does not count mirrors as further matches: two mirrors are not "multiple users"', async () => {
    await insertMirror('rmt02', 'twain@example.com', null);
    await insertMirror('rmt03', 'TWAIN@example.com', null);
    const me = await loggedInUser('twain', 'twain-pw');
    expect(String(me['uuid'])).toMatch(/^home1-tpzed-/);
  });

  it('finds the local user even when a mirror has the same email', async () => {
    const first = await loggedInUser('lola', 'lola-pw');
    const mirror = await insertMirror('rmt02', 'lola@example.com', null);
    const again = await loggedInUser('lola', 'lola-pw');
    expect(again['uuid']).toBe(first['uuid']);
    expect(again['uuid']).not.toBe(mirror);
  });
});
