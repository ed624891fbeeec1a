import { randomAlnum, sealTokenSecret, tokenSecretKey } from '@svc/ids';
import type { SvcClient } from '@svc/client';
import { useDeployment, type TestDeployment } from '../harness/deployment';
import { expectSecretKeptSafely, salt, sha256Hex, tokenRow } from '../harness/token-records';
import { login, makeUser, type TestUser } from '../harness/users';

/**
 * Token secrets at rest (auth.md §2) and salted tokens (§3 step 4, federation.md §3): a salted
 * token is HMAC-SHA1 keyed on the secret, which the database keeps only as D = sha256 and as E,
 * sealed under a key derived from SystemRootToken.
 */

const d = useDeployment({
  configure: (_id, c) => {
    c['Login'] = {
      Test: { Enable: true, Users: { erin: { Email: 'erin@example.com', Password: 'erin-pw' } } },
      TrustedClients: ['https://app.example.com'],
    };
    c['Users'] = { NewUsersAreActive: true };
  },
});
const secretOf = (v2: string) => v2.split('/')[2]!;
const NOT_LOGGED_IN = [401, ['Not logged in']];

type Probe = [method: 'GET' | 'POST', path: string, query: Record<string, string>];
const probe = async (client: SvcClient, [method, path, query]: Probe) => {
  const res = await client.request(method, `/svc/v1/${path}`, {
    query,
    ...(method === 'POST' ? { json: { collection: {} } } : {}),
  });
  return [method, path, query, res.status, res.status === 401 ? res.body.errors : undefined];
};
/** Every kind of place a token is checked: the two `current` endpoints, reads, a write. */
const everywhere = (u: TestUser, remote: string): Probe[] => [
  ['GET', 'users/current', {}],
  ['GET', 'users/current', { remote }],
  ['GET', 'api_client_authorizations/current', {}],
  ['GET', 'api_client_authorizations/current', { remote }],
  ['GET', `users/${u.uuid}`, { remote }],
  ['GET', 'groups', {}],
  ['GET', 'collections', { remote }],
  ['POST', 'collections', {}],
  ['POST', 'collections', { remote }],
];
async function expectRefusedEverywhere(token: string, u: TestUser, remote: string) {
  const client = d.current.client(token);
  for (const p of everywhere(u, remote)) {
    expect(await probe(client, p)).toEqual([...p, ...NOT_LOGGED_IN]);
  }
}

describe('salted tokens (auth.md §3 step 4)', () => {
  it('refuses a salted token built from the digest alone, everywhere', async () => {
    const u = await makeUser(d.current);
    const digest = sha256Hex(secretOf(u.token));
    for (const cluster of ['home1', 'rmt02']) {
      await expectRefusedEverywhere(`v2/${u.tokenUuid}/${salt(digest, cluster)}`, u, cluster);
    }
  });

  it('accepts the secret salted for this cluster wherever the token itself works', async () => {
    const u = await makeUser(d.current);
    const salted = salt(secretOf(u.token), 'home1');
    const client = d.current.client(`v2/${u.tokenUuid}/${salted}`);
    for (const p of everywhere(u, 'home1')) {
      const [, , , status] = await probe(client, p);
      expect([p, status]).toEqual([p, 200]);
    }
    const cur = await client.request('GET', '/svc/v1/api_client_authorizations/current');
    expect([cur.body.uuid, cur.body.owner_uuid, cur.body.api_token]).toEqual([
      u.tokenUuid,
      u.uuid,
      salted,
    ]);
  });

  it('accepts the secret salted for R only on the two current endpoints with remote=R', async () => {
    const u = await makeUser(d.current);
    const client = d.current.client(`v2/${u.tokenUuid}/${salt(secretOf(u.token), 'rmt02')}`);
    const cur = await client.request('GET', '/svc/v1/api_client_authorizations/current', {
      query: { remote: 'rmt02' },
    });
    expect([cur.status, cur.body.uuid, cur.body.api_token]).toEqual([200, u.tokenUuid, null]);
    const me = await client.request('GET', '/svc/v1/users/current', { query: { remote: 'rmt02' } });
    expect([me.status, me.body.uuid]).toEqual([200, u.uuid]);
    const refused: Probe[] = [
      ['GET', 'users/current', {}],
      ['GET', 'api_client_authorizations/current', {}],
      ['GET', 'users/current', { remote: 'rmt03' }],
      ['GET', 'api_client_authorizations/current', { remote: 'home1' }],
      ['GET', `users/${u.uuid}`, { remote: 'rmt02' }],
      ['GET', 'groups', { remote: 'rmt02' }],
      ['POST', 'collections', { remote: 'rmt02' }],
    ];
    for (const p of refused) expect(await probe(client, p)).toEqual([...p, ...NOT_LOGGED_IN]);
  });

  it('refuses salted forms of an expired token and of a wrong secret', async () => {
    const expired = await makeUser(d.current, {}, { expires_at: '2001-01-01T00:00:00Z' });
    const u = await makeUser(d.current);
    for (const token of [
      `v2/${expired.tokenUuid}/${salt(secretOf(expired.token), 'home1')}`,
      `v2/${u.tokenUuid}/${salt(secretOf(expired.token), 'home1')}`,
      `v2/${u.tokenUuid}/${salt(secretOf(u.token), 'home1').toUpperCase()}`,
      salt(secretOf(u.token), 'home1'),
    ]) {
      const res = await d.current.client(token).request('GET', '/svc/v1/users/current');
      expect([token, res.status, res.body.errors]).toEqual([token, ...NOT_LOGGED_IN]);
    }
  });
});

/** A record as one made before E existed: digest only, written straight to the database. */
async function insertOldRecord(dep: TestDeployment, owner: string) {
  const uuid = `home1-gj3su-${randomAlnum(15)}`;
  const secret = randomAlnum(50);
  await dep.running.cores[0]!.db.query({
    text: `INSERT INTO api_client_authorizations
             (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, secret_digest, api_client_uuid)
           VALUES ($1, $2, now(), now(), $2, $3, 'home1-ozdt8-000000000000000')`,
    values: [uuid, owner, sha256Hex(secret)],
  });
  return { uuid, secret };
}

async function setSealed(uuid: string, sealed: string) {
  await d.current.running.cores[0]!.db.query({
    text: 'UPDATE api_client_authorizations SET secret_ciphertext = $2 WHERE uuid = $1',
    values: [uuid, sealed],
  });
}

/** The token works as itself; its salted forms, for here and for a remote, get 401. */
async function expectLocalOnly(u: TestUser, uuid: string, secret: string) {
  for (const token of [`v2/${uuid}/${secret}`, secret]) {
    const me = await d.current.client(token).request('GET', '/svc/v1/users/current');
    expect([me.status, me.body.uuid]).toEqual([200, u.uuid]);
  }
  await expectRefusedEverywhere(`v2/${uuid}/${salt(secret, 'home1')}`, u, 'home1');
  const forRemote = d.current.client(`v2/${uuid}/${salt(secret, 'rmt02')}`);
  for (const path of ['users/current', 'api_client_authorizations/current']) {
    const p: Probe = ['GET', path, { remote: 'rmt02' }];
    expect(await probe(forRemote, p)).toEqual([...p, ...NOT_LOGGED_IN]);
  }
}

describe('token records without a usable sealed secret', () => {
  it('made before the migration: work on their own cluster, their salted forms get 401', async () => {
    const u = await makeUser(d.current);
    const old = await insertOldRecord(d.current, u.uuid);
    expect((await tokenRow(d.current, old.uuid)).secret_ciphertext).toBeNull();
    await expectLocalOnly(u, old.uuid, old.secret);
  });

  it('sealed under another SystemRootToken, or for another record, or holding another secret: the same', async () => {
    const u = await makeUser(d.current);
    const root = d.current.home.rootToken;
    const cases = [
      (uuid: string, secret: string) =>
        sealTokenSecret(tokenSecretKey(`${root}-old`), uuid, secret),
      (_uuid: string, secret: string) => sealTokenSecret(tokenSecretKey(root), u.tokenUuid, secret),
      (uuid: string) => sealTokenSecret(tokenSecretKey(root), uuid, secretOf(u.token)),
    ];
    for (const sealed of cases) {
      const old = await insertOldRecord(d.current, u.uuid);
      await setSealed(old.uuid, sealed(old.uuid, old.secret));
      await expectLocalOnly(u, old.uuid, old.secret);
    }
  });

  it('never accepts the salted form of a secret sealed into a record whose digest it does not match', async () => {
    const u = await makeUser(d.current);
    const old = await insertOldRecord(d.current, u.uuid);
    const planted = secretOf(u.token);
    await setSealed(
      old.uuid,
      sealTokenSecret(tokenSecretKey(d.current.home.rootToken), old.uuid, planted),
    );
    await expectRefusedEverywhere(`v2/${old.uuid}/${salt(planted, 'home1')}`, u, 'home1');
  });
});

describe('what the token table holds (auth.md §2)', () => {
  async function issuedTokens(): Promise<{ uuid: string; secret: string }[]> {
    const made = await makeUser(d.current);
    const logins = [
      await login(d.current, 'erin', 'erin-pw'),
      await login(d.current, 'erin', 'erin-pw', { return_to: 'https://app.example.com/x' }),
    ];
    for (const res of logins) expect(res.status).toBe(200);
    return [
      { uuid: made.tokenUuid, secret: secretOf(made.token) },
      ...logins.map((res) => ({ uuid: res.body.uuid, secret: res.body.api_token })),
    ];
  }

  it('keeps no secret in the clear: D is sha256, E opens only with the key from SystemRootToken', async () => {
    const tokens = await issuedTokens();
    for (const t of tokens) await expectSecretKeptSafely(d.current, t.uuid, t.secret);
    const { rows } = await d.current.running.cores[0]!.db.query({
      text: 'SELECT * FROM api_client_authorizations',
      values: [],
    });
    const table = JSON.stringify(rows);
    for (const t of tokens) expect(table).not.toContain(t.secret);
  });

  it('holds no value from which a working salted token can be computed', async () => {
    const tokens = await issuedTokens();
    for (const t of tokens) {
      const row = await tokenRow(d.current, t.uuid);
      const values = Object.values(row).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      for (const value of values) {
        for (const cluster of ['home1', 'rmt02']) {
          const client = d.current.client(`v2/${t.uuid}/${salt(value, cluster)}`);
          for (const path of ['users/current', 'api_client_authorizations/current']) {
            const res = await client.request('GET', `/svc/v1/${path}`, {
              query: { remote: cluster },
            });
            expect([value, cluster, path, res.status]).toEqual([value, cluster, path, 401]);
          }
        }
      }
      // The same probe with the secret itself succeeds: the refusals above are not vacuous.
      const real = d.current.client(`v2/${t.uuid}/${salt(t.secret, 'rmt02')}`);
      const ok = await real.request('GET', '/svc/v1/users/current', { query: { remote: 'rmt02' } });
      expect(ok.status).toBe(200);
    }
  });
});
