import { useDeployment, type TestDeployment } from '../harness/deployment';
import { login, makeUser } from '../harness/users';
import { runLoginForm } from '../harness/browser';

/** Password login with the test provider (auth.md §9.3, §9.6, §11), the login form (§9.7) and logout (§9.8). */

const APP = 'https://app.example.com';
const USERS = {
  alice: { Email: 'alice@example.com', Password: 'alice-pw' },
  'bob.x': { Email: 'bob@example.com', Password: 'bob-pw' },
  '2fast.4U': { Email: 'fast@example.com', Password: 'fast-pw' },
  '123': { Email: 'digits@example.com', Password: 'digits-pw' },
  twin: { Email: 'twin@example.com', Password: 'twin-pw' },
  carol: { Email: 'carol@example.com', Password: 'carol-pw' },
};

const cluster =
  (extra: { active: boolean; lifetime?: number }) => (_id: string, c: Record<string, any>) => {
    c['Login'] = {
      Test: { Enable: true, Users: USERS },
      TrustedClients: [APP],
      TokenLifetime: extra.lifetime ?? 0,
    };
    c['Users'] = { NewUsersAreActive: extra.active };
  };

const v2 = (record: { uuid: string; api_token: string }) => `v2/${record.uuid}/${record.api_token}`;
const failed = (u: string) => [401, [`authentication failed for user "${u}"`]];
const me = (d: TestDeployment, token: string) =>
  d.client(token).request('GET', '/svc/v1/users/current');

describe('users/authenticate with the test provider', () => {
  const d = useDeployment({ configure: cluster({ active: true, lifetime: 3600 }) });
  const post = (raw: { body: string; contentType?: string }) =>
    d.current.client(null).request('POST', '/svc/v1/users/authenticate', { raw });

  it('logs in by key and by email, with every accepted body type', async () => {
    const body = JSON.stringify({ username: 'alice', password: 'alice-pw' });
    const answers = [
      await login(d.current, 'alice', 'alice-pw'),
      await login(d.current, 'alice@example.com', 'alice-pw'),
      await post({ body, contentType: 'application/json' }),
      await post({ body, contentType: 'text/plain' }),
      await post({ body }),
      await d.current.client(null).request('POST', '/svc/v1/users/authenticate', {
        form: { username: 'alice', password: 'alice-pw' },
      }),
    ];
    const owners = new Set<string>();
    for (const res of answers) {
      expect([res.status, res.body.kind, res.body.scopes, res.body.api_client_uuid]).toEqual([
        200,
        'svc#apiClientAuthorization',
        ['all'],
        'home1-ozdt8-000000000000000',
      ]);
      expect(res.body.api_token).toMatch(/^[0-9a-z]{50}$/);
      owners.add(res.body.owner_uuid);
      expect((await me(d.current, v2(res.body))).body).toMatchObject({
        email: 'alice@example.com',
        username: 'alice',
        identity_url: 'test:alice',
        is_active: true,
      });
    }
    expect(owners.size).toBe(1);
  });

  it('needs a non-empty string username and password (422)', async () => {
    for (const fields of [
      {},
      { username: 'alice' },
      { password: 'x' },
      { username: '', password: 'x' },
      { username: 'alice', password: '' },
      { username: 5, password: 'alice-pw' },
    ]) {
      const res = await post({ body: JSON.stringify(fields), contentType: 'application/json' });
      expect([res.status, res.body.errors]).toEqual([422, ['username and password are required']]);
    }
  });

  it('refuses wrong passwords and unknown users (401)', async () => {
    const wrong = await login(d.current, 'alice', 'bob-pw');
    expect([wrong.status, wrong.body.errors]).toEqual(failed('alice'));
    const unknown = await login(d.current, 'mallory', 'alice-pw');
    expect([unknown.status, unknown.body.errors]).toEqual(failed('mallory'));
  });

  it('checks return_to, and gives the token the api_client of its origin', async () => {
    const bad = await login(d.current, 'alice', 'alice-pw', {
      return_to: 'https://evil.example.com/',
    });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      ['requesting site is not listed in Login.TrustedClients'],
    ]);
    const empty = await login(d.current, 'alice', 'alice-pw', { return_to: '' });
    expect([empty.status, empty.body.errors]).toEqual([422, ['return_to parameter is required']]);
    const ok = await login(d.current, 'alice', 'alice-pw', { return_to: `${APP}/after?x=1` });
    expect(ok.status).toBe(200);
    const client = await d.current.root.request(
      'GET',
      `/svc/v1/api_clients/${ok.body.api_client_uuid}`,
    );
    expect([client.body.url_prefix, client.body.is_trusted]).toEqual([APP, false]);
  });

  it('gives tokens Login.TokenLifetime', async () => {
    const res = await login(d.current, 'alice', 'alice-pw');
    const left = (Date.parse(res.body.expires_at) - Date.now()) / 1000;
    expect(left).toBeGreaterThan(3590);
    expect(left).toBeLessThanOrEqual(3600);
  });

  it('derives usernames: cleaned, no leading digits, numeric suffixes, or none', async () => {
    await makeUser(d.current, { username: 'bobx', email: 'other1@example.com' });
    await makeUser(d.current, { username: 'bobx2', email: 'other2@example.com' });
    const bob = await login(d.current, 'bob.x', 'bob-pw');
    expect((await me(d.current, v2(bob.body))).body.username).toBe('bobx3');
    const fast = await login(d.current, '2fast.4U', 'fast-pw');
    expect((await me(d.current, v2(fast.body))).body.username).toBe('fast4U');
    const digits = await login(d.current, '123', 'digits-pw');
    expect((await me(d.current, v2(digits.body))).body.username).toBeNull();
  });

  it('refuses a login whose email matches several users', async () => {
    await makeUser(d.current, { email: 'twin@example.com' });
    await makeUser(d.current, { email: 'TWIN@example.com' });
    const res = await login(d.current, 'twin', 'twin-pw');
    expect([res.status, res.body.errors]).toEqual([
      401,
      ['multiple users match email twin@example.com'],
    ]);
  });
});

describe('users/authenticate when new users are not active', () => {
  const d = useDeployment({ configure: cluster({ active: false }) });

  it('lets inactive users log in with a token that never expires, but not write', async () => {
    const res = await login(d.current, 'carol', 'carol-pw');
    expect([res.status, res.body.expires_at]).toEqual([200, null]);
    const token = v2(res.body);
    const user = await me(d.current, token);
    expect([user.status, user.body.is_active]).toEqual([200, false]);
    const write = await d.current
      .client(token)
      .request('POST', '/svc/v1/collections', { json: { collection: { name: 'x' } } });
    expect([write.status, write.body.errors]).toEqual([403, ['Forbidden: user is not active']]);
  });
});

describe('the login form', () => {
  const d = useDeployment({ configure: cluster({ active: true }) });

  it('is a small page posting to users/authenticate, with return_to escaped', async () => {
    const returnTo = `${APP}/cb?a=1&b="><script>alert(1)</script>#x'y`;
    const res = await d.current
      .client(null)
      .request('GET', '/login', { query: { return_to: returnTo } });
    expect([res.status, res.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'sha256-");
    expect(res.text).toMatch(/<form[^>]*method="post"[^>]*action="\/svc\/v1\/users\/authenticate"/);
    expect(res.text).toContain(
      'value="https://app.example.com/cb?a=1&amp;b=%22%3E%3Cscript%3Ealert(1)%3C/script%3E#x&#39;y"',
    );
    expect(res.text).not.toContain('alert(1)</script>');
    const script = /<script>([\s\S]*)<\/script>/.exec(res.text)![1]!;
    expect(script).not.toContain('app.example.com');
  });

  it('logs in from the form and sends the browser to return_to with the token', async () => {
    const page = await d.current
      .client(null)
      .request('GET', '/login', { query: { return_to: `${APP}/cb?a=1` } });
    const result = await runLoginForm(page.text, d.current.url, 'alice', 'alice-pw');
    const target = new URL(result.assigned!);
    expect(`${target.origin}${target.pathname}`).toBe(`${APP}/cb`);
    expect(target.searchParams.get('a')).toBe('1');
    const token = target.searchParams.get('api_token')!;
    expect((await me(d.current, token)).body.email).toBe('alice@example.com');
    const wrong = await runLoginForm(page.text, d.current.url, 'alice', 'nope');
    expect(wrong).toEqual({ error: 'authentication failed for user "alice"' });
  });

  it('needs a trusted return_to', async () => {
    const missing = await d.current.client(null).request('GET', '/login');
    expect([missing.status, missing.body.errors]).toEqual([
      422,
      ['return_to parameter is required'],
    ]);
    const bad = await d.current
      .client(null)
      .request('GET', '/login', { query: { return_to: 'https://evil.example.com/' } });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      ['requesting site is not listed in Login.TrustedClients'],
    ]);
  });
});

describe('logout', () => {
  const d = useDeployment({ configure: cluster({ active: true }) });
  const fresh = async () => v2((await login(d.current, 'alice', 'alice-pw')).body);

  it('expires a token given in the header or as api_token, then redirects to return_to', async () => {
    for (const how of ['header', 'param'] as const) {
      const token = await fresh();
      expect((await me(d.current, token)).status).toBe(200);
      const res = await d.current
        .client(how === 'header' ? token : null)
        .request('GET', '/logout', {
          query: { return_to: `${APP}/bye`, ...(how === 'param' ? { api_token: token } : {}) },
        });
      expect([res.status, res.headers['location']]).toEqual([302, `${APP}/bye`]);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect((await me(d.current, token)).status).toBe(401);
      const rec = await d.current.root.request(
        'GET',
        `/svc/v1/api_client_authorizations/${token.split('/')[1]}`,
      );
      expect(Date.parse(rec.body.expires_at)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('redirects to / without return_to (ExternalURL unset), whatever the token', async () => {
    for (const token of [null, 'not-a-token', d.current.home.rootToken]) {
      const res = await d.current.client(token).request('GET', '/logout');
      // Never a URL built from the request's Host (docs/api/auth.md §9.8).
      expect([res.status, res.headers['location']]).toEqual([302, '/']);
    }
    expect((await me(d.current, d.current.home.rootToken)).status).toBe(200);
  });

  it('refuses an untrusted return_to before touching the token', async () => {
    const token = await fresh();
    const res = await d.current
      .client(token)
      .request('GET', '/logout', { query: { return_to: 'https://evil.example.com/' } });
    expect([res.status, res.body.errors]).toEqual([
      422,
      ['requesting site is not listed in Login.TrustedClients'],
    ]);
    expect((await me(d.current, token)).status).toBe(200);
  });
});

describe('users/authenticate with providers that take no password here', () => {
  describe('OpenID Connect', () => {
    const d = useDeployment({
      configure: (_id, c) => {
        c['Login'] = {
          OpenIDConnect: { Enable: true, Issuer: 'http://127.0.0.1:9/', ClientID: 'x' },
        };
      },
    });
    it('answers 422', async () => {
      const res = await login(d.current, 'alice', 'alice-pw');
      expect([res.status, res.body.errors]).toEqual([
        422,
        ['username/password authentication is not available'],
      ]);
    });
  });

  describe('PAM (not built in)', () => {
    const d = useDeployment({ configure: (_id, c) => (c['Login'] = { PAM: { Enable: true } }) });
    it('answers 422', async () => {
      const res = await login(d.current, 'alice', 'alice-pw');
      expect([res.status, res.body.errors]).toEqual([
        422,
        ['username/password authentication is not available'],
      ]);
    });
  });
});
