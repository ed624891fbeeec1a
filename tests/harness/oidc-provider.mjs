// A real OpenID Connect provider (npm oidc-provider) for the login tests, run as a child
// process because oidc-provider is ESM-only and Jest (CJS) cannot load it.
//
// Environment:
//   OIDC_CLIENT_ID, OIDC_CLIENT_SECRET  the one confidential client. Its redirect URI is
//       http://127.0.0.1/login as a "native" client, so any loopback port is accepted (RFC 8252).
//   OIDC_ACCOUNTS  JSON {accountId: {claims…}}. The login form takes the account id; oidc-provider's
//       development interactions do not check the password.
//   OIDC_RESOURCE  resource indicator for JWT access tokens (default https://api.svc.test); its
//       scopes are OIDC_RESOURCE_SCOPES (space-separated, default "svc.api other.api").
// Prints one JSON line {"issuer": …} on stdout when ready.
//
// Test additions, outside the OIDC protocol:
//   GET /test/stats  {"userinfo": <number of UserInfo requests so far>}
//   UserInfo also accepts the JWT access tokens issued for OIDC_RESOURCE. oidc-provider refuses
//   tokens with an audience there; providers such as Keycloak accept them, and the
//   access-token tests need a token that is both a JWT with a scope claim and UserInfo-valid.
import { createServer } from 'node:http';
import { generateKeyPairSync, createPublicKey, verify } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

const env = process.env;
const accounts = JSON.parse(env.OIDC_ACCOUNTS ?? '{}');
const resource = env.OIDC_RESOURCE ?? 'https://api.svc.test';
const resourceScopes = env.OIDC_RESOURCE_SCOPES ?? 'svc.api other.api';
const stats = { userinfo: 0 };

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = {
  ...privateKey.export({ format: 'jwk' }),
  kid: 'test-key-1',
  use: 'sig',
  alg: 'RS256',
};
const publicKey = createPublicKey(privateKey);

const findAccount = async (_ctx, id) =>
  Object.hasOwn(accounts, id)
    ? { accountId: id, claims: async () => ({ sub: id, ...accounts[id] }) }
    : undefined;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: env.OIDC_CLIENT_ID,
      client_secret: env.OIDC_CLIENT_SECRET,
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/login'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: ['oidc-test-cookie-key'] },
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'given_name', 'family_name', 'preferred_username'],
  },
  findAccount,
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 60,
    IdToken: 3600,
    Grant: 3600,
    Interaction: 600,
    Session: 3600,
  },
  features: {
    devInteractions: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => undefined,
      useGrantedResource: async () => false,
      getResourceServerInfo: async (_ctx, indicator) => {
        if (indicator !== resource) throw new errors.InvalidTarget();
        return {
          scope: resourceScopes,
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 3600,
        };
      },
    },
  },
});

const b64json = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** The claims for a JWT access token this provider signed, or null. */
async function jwtUserInfo(token) {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const header = b64json(parts[0]);
    const payload = b64json(parts[1]);
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    const ok =
      header.alg === 'RS256' &&
      verify('sha256', signed, publicKey, Buffer.from(parts[2], 'base64url'));
    if (!ok || payload.iss !== issuer || !(payload.exp > Date.now() / 1000)) return null;
    const account = await findAccount(null, payload.sub);
    return account ? account.claims() : null;
  } catch {
    return null;
  }
}

provider.use(async (ctx, next) => {
  if (ctx.path === '/test/stats') {
    ctx.body = stats;
    return;
  }
  if (ctx.path === '/me') {
    stats.userinfo += 1;
    const bearer = /^Bearer (\S+)$/.exec(ctx.get('authorization'))?.[1];
    const claims = bearer && bearer.includes('.') ? await jwtUserInfo(bearer) : undefined;
    if (claims === null) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
      ctx.body = { error: 'invalid_token' };
      return;
    }
    if (claims) {
      ctx.body = claims;
      return;
    }
  }
  await next();
});

server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
