import { request } from 'undici';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

/** What the gateway needs from an OpenID Connect provider's discovery document. */
export interface ProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | null;
  /** The provider's signing keys, fetched on demand and refreshed when a new key id appears. */
  jwks: JWTVerifyGetKey;
}

const TIMEOUT_MS = 10_000;
/** Discovery documents change rarely; keys are refreshed by jose whenever an unknown kid shows up. */
const METADATA_TTL_MS = 3_600_000;

const withoutSlash = (url: string): string => url.replace(/\/+$/, '');

function field(doc: Record<string, unknown>, name: string): string {
  const value = doc[name];
  if (typeof value !== 'string' || value === '')
    throw new Error(`provider metadata has no ${name}`);
  return value;
}

async function discover(issuer: string): Promise<ProviderMetadata> {
  const url = `${withoutSlash(issuer)}/.well-known/openid-configuration`;
  const res = await request(url, { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  const body = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  const doc = JSON.parse(body) as Record<string, unknown>;
  // The issuer must be the configured one (OIDC Discovery §4.3), or ID tokens could name another.
  if (withoutSlash(field(doc, 'issuer')) !== withoutSlash(issuer)) {
    throw new Error(`provider metadata names issuer ${String(doc['issuer'])}, not ${issuer}`);
  }
  const userinfo = doc['userinfo_endpoint'];
  return {
    issuer: field(doc, 'issuer'),
    authorizationEndpoint: field(doc, 'authorization_endpoint'),
    tokenEndpoint: field(doc, 'token_endpoint'),
    userinfoEndpoint: typeof userinfo === 'string' && userinfo !== '' ? userinfo : null,
    jwks: createRemoteJWKSet(new URL(field(doc, 'jwks_uri')), { timeoutDuration: TIMEOUT_MS }),
  };
}

/** The configured provider, discovered on first use (not at start-up, so a provider outage cannot stop the cluster). */
export class IdentityProvider {
  private pending: Promise<ProviderMetadata> | null = null;
  private fetchedAt = 0;

  constructor(readonly issuer: string) {}

  metadata(): Promise<ProviderMetadata> {
    if (this.pending === null || Date.now() - this.fetchedAt > METADATA_TTL_MS) {
      this.fetchedAt = Date.now();
      const pending = discover(this.issuer);
      // A failure is not remembered: the next login tries again.
      pending.catch(() => {
        if (this.pending === pending) this.pending = null;
      });
      this.pending = pending;
    }
    return this.pending;
  }
}

/**
 * The UserInfo claims for an access token, or null when the provider refuses it (any non-2xx)
 * or answers something other than a JSON object.
 */
export async function fetchUserInfo(
  endpoint: string,
  accessToken: string,
): Promise<Record<string, unknown> | null> {
  const res = await request(endpoint, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode > 299) return null;
  try {
    const claims: unknown = JSON.parse(text);
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
