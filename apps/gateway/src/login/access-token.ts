import { jwtVerify } from 'jose';
import type { ClusterConfig } from '@svc/config';
import { hmacHex, parseV2Token, type Identity } from '@svc/ids';
import type { Authenticator } from '../auth/authenticate';
import type { CoreClient } from '../core-client';
import { loginFromClaims } from './claims';
import { fetchUserInfo, type ProviderMetadata } from './identity-provider';
import { identityProviderFor } from './login-page';

type Valid = { identity: Identity; expiresAt: string | null };

/** auth.md §10 step 2: a JWT signed by the provider, unexpired, granting `scope`. */
async function grantsScope(meta: ProviderMetadata, token: string, scope: string): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(token, meta.jwks, {
      issuer: meta.issuer,
      requiredClaims: ['exp'],
    });
    const granted = typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : [];
    return granted.includes(scope);
  } catch {
    // Not a JWT, a bad signature, expired, or keys not obtainable: refused all the same.
    return false;
  }
}

/** Steps 2–4 for one token; null whenever the token does not log anybody in. */
async function check(
  home: Readonly<ClusterConfig>,
  homeCore: CoreClient,
  token: string,
): Promise<Valid | null> {
  const c = home.Login.OpenIDConnect;
  const meta = await identityProviderFor(home).metadata();
  if (
    c.AcceptAccessTokenScope !== '' &&
    !(await grantsScope(meta, token, c.AcceptAccessTokenScope))
  )
    return null;
  if (meta.userinfoEndpoint === null) return null;
  const claims = await fetchUserInfo(meta.userinfoEndpoint, token);
  if (claims === null) return null;
  const login = loginFromClaims(c, meta.issuer, claims);
  // The core stores only sha256 of this key (§10 step 4): neither the token nor the key is kept.
  const cacheKey = hmacHex('sha256', home.SystemRootToken, token);
  const res = await homeCore.post<Valid>('/_internal/access-token', { login, cacheKey });
  if (res.status !== 200) return null;
  return { identity: { ...res.body.identity, echoToken: token }, expiresAt: res.body.expiresAt };
}

/**
 * The Authenticator's fallback for identity-provider access tokens (auth.md §10), or undefined
 * when they are not accepted. Step 1 (the cached record) is the core's ordinary token check,
 * which runs before this. A provider that cannot be reached refuses the token (401).
 */
export function accessTokenFallback(
  home: Readonly<ClusterConfig>,
  homeCore: CoreClient,
): Authenticator['fallback'] {
  const c = home.Login.OpenIDConnect;
  if (!c.Enable || !c.AcceptAccessToken) return undefined;
  return async (token) => {
    // A v2 token is one of ours or a federated one: §3 has already decided about it.
    if (parseV2Token(token) !== null) return null;
    try {
      return await check(home, homeCore, token);
    } catch {
      // Claims that allow no login (ClaimsError), or a provider unreachable or answering
      // nonsense: either way the token logs nobody in now.
      return null;
    }
  };
}
