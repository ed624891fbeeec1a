import { request } from 'undici';
import { hmacHex, secretDigest } from '@svc/ids';
import { useDeployment, type TestDeployment } from '../harness/deployment';
import type { HelperProcess } from '../harness/helper-process';
import { startOidcProvider } from '../harness/oidc';
import { Browser, passProviderPages } from '../harness/browser';
import { expectSecretKeptSafely } from '../harness/token-records';

/** OpenID Connect login (auth.md §9.2) and identity-provider access tokens (§10) against a real provider. */

const CLIENT = { id: 'svc-test-client', secret: 'svc-test-client-secret-0123456789' };
const APP = 'https://app.example.com';
const ACCOUNTS = {
  alice: {
    email: 'Alice@Example.com',
    email_verified: true,
    given_name: 'Alice',
    family_name: 'Liddell',
    preferred_username: 'alice.l',
  },
  bob: {
    email: 'bob@example.com',
    email_verified: true,
    name: 'Robert Van Builder',
    preferred_username: 'bob',
  },
  carol: { email: 'carol@example.com', email_verified: false, name: 'Carol' },
  dave: { email: 'dave@example.com', email_verified: true, name: 'Dave' },
};

let provider: HelperProcess<{ issuer: string }>;
beforeAll(async () => {
  provider = await startOidcProvider(CLIENT, ACCOUNTS);
}, 30_000);
afterAll(() => provider?.stop());
const issuer = () => provider.info.issuer;

const oidcCluster = (extra: Record<string, unknown>) => (_id: string, c: Record<string, any>) => {
  c['Login'] = {
    OpenIDConnect: {
      Enable: true,
      Issuer: issuer(),
      ClientID: CLIENT.id,
      ClientSecret: CLIENT.secret,
      UsernameClaim: 'preferred_username',
      AuthenticationRequestParameters: { login_hint: 'someone', extra_thing: 'a b&c' },
      ...extra,
    },
    TrustedClients: [APP],
  };
  c['Users'] = { NewUsersAreActive: true };
};

const userinfoCalls = async (): Promise<number> => {
  const res = await request(`${issuer()}/test/stats`);
  return ((await res.body.json()) as { userinfo: number }).userinfo;
};

/** The whole browser login: gateway → provider pages → gateway callback → return_to. */
async function browserLogin(d: TestDeployment, account: string, returnTo = `${APP}/welcome?x=1`) {
  const browser = new Browser();
  const start = await browser.request(
    'GET',
    `${d.url}/login?return_to=${encodeURIComponent(returnTo)}`,
  );
  expect(start.status).toBe(302);
  const callback = await passProviderPages(
    browser,
    start.location!,
    account,
    (u) => u.origin === d.url,
  );
  const final = await browser.request('GET', callback);
  return { start, callback, final };
}

/** An access token straight from the provider, as a client of its own would get one. */
async function accessToken(
  account: string,
  opts: { scope?: string; resource?: string } = {},
): Promise<string> {
  const redirectUri = 'http://127.0.0.1:1/login';
  const auth = new URL(`${issuer()}/auth`);
  const params = {
    client_id: CLIENT.id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: opts.scope ?? 'openid email profile',
  };
  for (const [k, v] of Object.entries({
    ...params,
    ...(opts.resource ? { resource: opts.resource } : {}),
  }))
    auth.searchParams.set(k, v);
  const back = await passProviderPages(new Browser(), auth, account, (u) => u.port === '1');
  const form = {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: redirectUri,
    ...(opts.resource ? { resource: opts.resource } : {}),
  };
  const res = await request(`${issuer()}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await res.body.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token endpoint: ${JSON.stringify(body)}`);
  return body.access_token;
}

const current = (d: TestDeployment, token: string) =>
  d.client(token).request('GET', '/svc/v1/users/current');

describe('login through OpenID Connect', () => {
  const d = useDeployment({ configure: oidcCluster({}) });

  it('redirects to the provider with the contract query', async () => {
    const res = await d.current
      .client(null)
      .request('GET', '/login', { query: { return_to: `${APP}/cb` } });
    expect(res.status).toBe(302);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const to = new URL(String(res.headers['location']));
    expect(`${to.origin}${to.pathname}`).toBe(`${issuer()}/auth`);
    const q = Object.fromEntries(to.searchParams);
    expect(q).toMatchObject({
      response_type: 'code',
      client_id: CLIENT.id,
      redirect_uri: `${d.current.url}/login`,
      scope: 'openid email profile',
      login_hint: 'someone',
      extra_thing: 'a b&c',
    });
    expect(q['state']).toMatch(/\S{20,}/);
  });

  it('logs in end to end, registers the user and returns a working token', async () => {
    const { callback, final } = await browserLogin(d.current, 'alice');
    expect(callback.pathname).toBe('/login');
    expect(final.status).toBe(302);
    expect(final.headers['access-control-allow-origin']).toBeUndefined();
    const back = final.location!;
    expect(`${back.origin}${back.pathname}`).toBe(`${APP}/welcome`);
    expect(back.searchParams.get('x')).toBe('1');
    const token = back.searchParams.get('api_token')!;
    expect(token).toMatch(/^v2\/home1-gj3su-[0-9a-z]{15}\/[0-9a-z]{50}$/);
    await expectSecretKeptSafely(d.current, token.split('/')[1]!, token.split('/')[2]!);
    const me = await current(d.current, token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: 'Alice@Example.com',
      first_name: 'Alice',
      last_name: 'Liddell',
      username: 'alicel',
      identity_url: `${issuer()}#alice`,
      is_active: true,
      is_admin: false,
    });
    const rec = await d.current
      .client(token)
      .request('GET', '/svc/v1/api_client_authorizations/current');
    const client = await d.current.root.request(
      'GET',
      `/svc/v1/api_clients/${rec.body.api_client_uuid}`,
    );
    expect([client.body.url_prefix, client.body.is_trusted]).toEqual([APP, false]);
  });

  it('finds the same user again, and splits `name` when there are no given/family names', async () => {
    const first = await browserLogin(d.current, 'alice');
    const again = await current(d.current, first.final.location!.searchParams.get('api_token')!);
    expect(again.body.identity_url).toBe(`${issuer()}#alice`);
    const bob = await browserLogin(d.current, 'bob');
    const me = await current(d.current, bob.final.location!.searchParams.get('api_token')!);
    expect(me.body).toMatchObject({
      first_name: 'Robert Van',
      last_name: 'Builder',
      username: 'bob',
      email: 'bob@example.com',
    });
  });

  it('refuses an unverified email', async () => {
    const { final } = await browserLogin(d.current, 'carol');
    expect(final.status).toBe(400);
    expect(final.headers['content-type']).toMatch(/^text\/html/);
    expect(final.text).toMatch(/^Login error: .*not verified/);
  });

  it('answers a bad or tampered state with a 400 login error page', async () => {
    const start = await d.current
      .client(null)
      .request('GET', '/login', { query: { return_to: `${APP}/cb` } });
    const state = new URL(String(start.headers['location'])).searchParams.get('state')!;
    const [payload, mac] = state.split('.');
    const evil = Buffer.from(
      JSON.stringify({ t: Math.floor(Date.now() / 1000), r: 'https://evil.example.com/' }),
    ).toString('base64url');
    for (const bad of ['garbage', `${evil}.${mac}`, `${payload}.${'0'.repeat(64)}`]) {
      const res = await d.current
        .client(null)
        .request('GET', '/login', { query: { code: 'abc', state: bad } });
      expect([res.status, res.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
      expect(res.text.startsWith('Login error: ')).toBe(true);
    }
    const noState = await d.current
      .client(null)
      .request('GET', '/login', { query: { code: 'abc' } });
    expect([noState.status, noState.text.startsWith('Login error: ')]).toEqual([400, true]);
    const noCode = await d.current.client(null).request('GET', '/login', { query: { state } });
    expect([noCode.status, noCode.text.startsWith('Login error: ')]).toEqual([400, true]);
    const denied = await d.current
      .client(null)
      .request('GET', '/login', { query: { error: 'access_denied', state } });
    expect([denied.status, denied.text.startsWith('Login error: ')]).toEqual([400, true]);
  });

  it('answers a valid state with a bad code with a 400 login error page', async () => {
    const start = await d.current
      .client(null)
      .request('GET', '/login', { query: { return_to: `${APP}/cb` } });
    const state = new URL(String(start.headers['location'])).searchParams.get('state')!;
    const res = await d.current
      .client(null)
      .request('GET', '/login', { query: { code: 'not-a-code', state } });
    expect([res.status, res.text.startsWith('Login error: ')]).toEqual([400, true]);
  });

  it('refuses missing and untrusted return_to with the JSON 422s', async () => {
    const missing = await d.current.client(null).request('GET', '/login');
    expect([missing.status, missing.body.errors]).toEqual([
      422,
      ['return_to parameter is required'],
    ]);
    for (const bad of [
      'https://evil.example.com/',
      'javascript:alert(1)',
      `${APP.replace('https', 'http')}/`,
    ]) {
      const res = await d.current
        .client(null)
        .request('GET', '/login', { query: { return_to: bad } });
      expect([res.status, res.body.errors]).toEqual([
        422,
        ['requesting site is not listed in Login.TrustedClients'],
      ]);
    }
  });

  it('does not take passwords', async () => {
    const res = await d.current.client(null).request('POST', '/svc/v1/users/authenticate', {
      json: { username: 'alice', password: 'x' },
    });
    expect([res.status, res.body.errors]).toEqual([
      422,
      ['username/password authentication is not available'],
    ]);
  });

  it('does not accept provider access tokens unless configured', async () => {
    const token = await accessToken('dave');
    const before = await userinfoCalls();
    expect((await current(d.current, token)).status).toBe(401);
    expect(await userinfoCalls()).toBe(before);
  });
});

describe('identity-provider access tokens', () => {
  const d = useDeployment({ configure: oidcCluster({ AcceptAccessToken: true }) });

  it('accepts one after asking UserInfo once, and caches it as a digest for 10 minutes', async () => {
    const token = await accessToken('dave');
    const before = await userinfoCalls();
    const first = await current(d.current, token);
    expect([first.status, first.body.email, first.body.identity_url]).toEqual([
      200,
      'dave@example.com',
      `${issuer()}#dave`,
    ]);
    expect(await userinfoCalls()).toBe(before + 1);
    expect((await current(d.current, token)).status).toBe(200);
    expect(await userinfoCalls()).toBe(before + 1);

    const db = d.current.running.cores[0]!.db;
    const key = hmacHex('sha256', d.current.home.rootToken, token);
    const { rows } = await db.query<Record<string, any>>({
      text: `SELECT *, extract(epoch FROM expires_at - clock_timestamp()) AS ttl FROM api_client_authorizations WHERE secret_digest = $1`,
      values: [secretDigest(key)],
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      owner_uuid: first.body.uuid,
      api_client_uuid: 'home1-ozdt8-000000000000000',
      scopes: ['all'],
    });
    expect(Number(rows[0]!['ttl'])).toBeGreaterThan(590);
    expect(Number(rows[0]!['ttl'])).toBeLessThanOrEqual(600);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(key);
    // Its secret K is kept like any other: the digest, and E sealed under SystemRootToken.
    await expectSecretKeptSafely(d.current, rows[0]!['uuid'], key);
  });

  it('asks the provider again once the cached record has expired', async () => {
    const token = await accessToken('dave');
    expect((await current(d.current, token)).status).toBe(200);
    const rec = await d.current
      .client(token)
      .request('GET', '/svc/v1/api_client_authorizations/current');
    const before = await userinfoCalls();
    const expire = await d.current.root.request(
      'PATCH',
      `/svc/v1/api_client_authorizations/${rec.body.uuid}`,
      {
        json: { api_client_authorization: { expires_at: '2001-01-01T00:00:00Z' } },
      },
    );
    expect(expire.status).toBe(200);
    expect((await current(d.current, token)).status).toBe(200);
    expect(await userinfoCalls()).toBe(before + 1);
    const again = await d.current
      .client(token)
      .request('GET', '/svc/v1/api_client_authorizations/current');
    expect(again.body.uuid).not.toBe(rec.body.uuid);
  });

  it('refuses tokens the provider does not know, without storing anything', async () => {
    const before = await userinfoCalls();
    expect((await current(d.current, 'not-a-provider-token-at-all')).status).toBe(401);
    expect(await userinfoCalls()).toBe(before + 1);
  });
});

describe('identity-provider access tokens with a required scope', () => {
  const d = useDeployment({
    configure: oidcCluster({ AcceptAccessToken: true, AcceptAccessTokenScope: 'svc.api' }),
  });
  const resource = 'https://api.svc.test';

  it('accepts a signed JWT granting the scope', async () => {
    const token = await accessToken('dave', { scope: 'openid email profile svc.api', resource });
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({
      scope: expect.stringContaining('svc.api'),
    });
    const res = await current(d.current, token);
    expect([res.status, res.body.email]).toEqual([200, 'dave@example.com']);
  });

  it('refuses JWTs without the scope, opaque tokens and forged JWTs, before asking UserInfo', async () => {
    const other = await accessToken('dave', { scope: 'openid email profile other.api', resource });
    const opaque = await accessToken('dave');
    const [h, p] = other.split('.');
    const claims = { ...JSON.parse(Buffer.from(p!, 'base64url').toString()), scope: 'svc.api' };
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${other.split('.')[2]}`;
    const before = await userinfoCalls();
    for (const token of [other, opaque, forged])
      expect((await current(d.current, token)).status).toBe(401);
    expect(await userinfoCalls()).toBe(before);
  });
});
