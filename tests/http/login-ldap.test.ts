import { join } from 'node:path';
import { useDeployment } from '../harness/deployment';
import { login } from '../harness/users';
import { expectSecretKeptSafely } from '../harness/token-records';
import { startHelperProcess, type HelperProcess } from '../harness/helper-process';

/** Password login against a real LDAP directory (auth.md §9.3, §9.4), served by ldapjs in a child process. */

const BASE = 'dc=example,dc=com';
const SEARCH = { dn: `cn=search,${BASE}`, password: 'search-pw' };
const person = (uid: string, attrs: Record<string, unknown>) => ({
  dn: `uid=${uid},ou=people,${BASE}`,
  attributes: { objectClass: ['person'], uid, ...attrs },
});
const ENTRIES = [
  person('alice', {
    mail: 'alice@example.com',
    userPassword: 'alice-pw',
    givenName: 'Alice',
    sn: 'Liddell',
  }),
  person('nomail', { userPassword: 'nomail-pw' }),
  person('twin', { mail: 'twin1@example.com', userPassword: 'twin-pw' }),
  {
    dn: `uid=twin,ou=others,${BASE}`,
    attributes: {
      objectClass: ['person'],
      uid: 'twin',
      mail: 'twin2@example.com',
      userPassword: 'twin-pw',
    },
  },
  {
    dn: `uid=printer,ou=devices,${BASE}`,
    attributes: {
      objectClass: ['device'],
      uid: 'printer',
      mail: 'printer@example.com',
      userPassword: 'printer-pw',
    },
  },
  person('a*', { mail: 'star@example.com', userPassword: 'star-pw' }),
];

let directory: HelperProcess<{ url: string }>;
beforeAll(async () => {
  directory = await startHelperProcess(join(__dirname, '../harness/ldap-server.mjs'), {
    LDAP_BASE: BASE,
    LDAP_ENTRIES: JSON.stringify(ENTRIES),
    LDAP_BIND_DN: SEARCH.dn,
    LDAP_BIND_PASSWORD: SEARCH.password,
  });
}, 30_000);
afterAll(() => directory?.stop());

const ldapCluster = (ldap: Record<string, unknown>) => (_id: string, c: Record<string, any>) => {
  c['Login'] = {
    LDAP: {
      Enable: true,
      URL: directory.info.url,
      StartTLS: false,
      SearchBase: BASE,
      SearchBindUser: SEARCH.dn,
      SearchBindPassword: SEARCH.password,
      SearchFilters: '(objectClass=person)',
      ...ldap,
    },
    TrustedClients: ['https://app.example.com'],
  };
  c['Users'] = { NewUsersAreActive: true };
};

const failed = (username: string) => [401, [`authentication failed for user "${username}"`]];

describe('LDAP login', () => {
  const d = useDeployment({ configure: ldapCluster({}) });

  it('logs in with the directory password and registers the user from the entry', async () => {
    const res = await login(d.current, 'alice', 'alice-pw');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'svc#apiClientAuthorization',
      scopes: ['all'],
      api_client_uuid: 'home1-ozdt8-000000000000000',
    });
    await expectSecretKeptSafely(d.current, res.body.uuid, res.body.api_token);
    const me = await d.current
      .client(`v2/${res.body.uuid}/${res.body.api_token}`)
      .request('GET', '/svc/v1/users/current');
    expect(me.body).toMatchObject({
      email: 'alice@example.com',
      username: 'alice',
      first_name: 'Alice',
      last_name: 'Liddell',
      identity_url: 'ldap:alice',
      is_active: true,
    });
    const again = await login(d.current, 'alice', 'alice-pw', {
      return_to: 'https://app.example.com/x',
    });
    expect([again.status, again.body.owner_uuid]).toEqual([200, me.body.uuid]);
    expect(again.body.api_client_uuid).not.toBe('home1-ozdt8-000000000000000');
  });

  it('refuses a wrong password and an unknown user with 401', async () => {
    const wrong = await login(d.current, 'alice', 'nope');
    expect([wrong.status, wrong.body.errors]).toEqual(failed('alice'));
    const unknown = await login(d.current, 'nobody', 'alice-pw');
    expect([unknown.status, unknown.body.errors]).toEqual(failed('nobody'));
  });

  it('applies SearchFilters: entries outside them cannot log in', async () => {
    const res = await login(d.current, 'printer', 'printer-pw');
    expect([res.status, res.body.errors]).toEqual(failed('printer'));
  });

  it('escapes the username in the filter (RFC 4515)', async () => {
    // Unescaped, "*" would match every entry; escaped it matches only the entry named "a*".
    expect((await login(d.current, '*', 'alice-pw')).status).toBe(401);
    expect((await login(d.current, 'a*', 'alice-pw')).status).toBe(401);
    const star = await login(d.current, 'a*', 'star-pw');
    expect(star.status).toBe(200);
    const injected = await login(d.current, 'alice)(uid=*', 'alice-pw');
    expect([injected.status, injected.body.errors]).toEqual(failed('alice)(uid=*'));
  });

  it('needs exactly one entry and an email address', async () => {
    expect((await login(d.current, 'twin', 'twin-pw')).status).toBe(401);
    expect((await login(d.current, 'nomail', 'nomail-pw')).status).toBe(401);
  });

  it('still requires both fields', async () => {
    const res = await login(d.current, 'alice', '');
    expect([res.status, res.body.errors]).toEqual([422, ['username and password are required']]);
  });
});

describe('LDAP login without the search bind the directory requires', () => {
  const d = useDeployment({
    configure: ldapCluster({ SearchBindUser: '', SearchBindPassword: '' }),
  });

  it('cannot find the user, so the login fails with 401', async () => {
    const res = await login(d.current, 'alice', 'alice-pw');
    expect([res.status, res.body.errors]).toEqual(failed('alice'));
  });
});

describe('LDAP login with a broken search bind', () => {
  const d = useDeployment({ configure: ldapCluster({ SearchBindPassword: 'wrong' }) });

  it("is a server error (502), not the user's fault", async () => {
    const res = await login(d.current, 'alice', 'alice-pw');
    expect(res.status).toBe(502);
    expect(res.body.errors[0]).toMatch(/^LDAP server error: search bind failed/);
  });
});

describe('LDAP login when the directory is down', () => {
  const d = useDeployment({ configure: ldapCluster({ URL: 'ldap://127.0.0.1:1' }) });

  it('answers 502 "LDAP server error: …"', async () => {
    const res = await login(d.current, 'alice', 'alice-pw');
    expect(res.status).toBe(502);
    expect(res.body.errors[0]).toMatch(/^LDAP server error: .*ECONNREFUSED/);
  });
});

describe('LDAP login with StartTLS against a directory without it', () => {
  const d = useDeployment({ configure: ldapCluster({ StartTLS: true }) });

  it('refuses to continue in clear text (502)', async () => {
    const res = await login(d.current, 'alice', 'alice-pw');
    expect(res.status).toBe(502);
    expect(res.body.errors[0]).toMatch(/^LDAP server error: StartTLS failed/);
  });
});
