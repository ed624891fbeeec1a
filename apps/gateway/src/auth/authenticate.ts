import type { ClusterConfig } from '@svc/config';
import { builtInUuids, rootIdentity } from '@svc/contract';
import { NotLoggedInError } from '@svc/errors';
import { parseV2Token, safeEqual, type Identity } from '@svc/ids';
import type { CoreClient } from '../core-client';
import type { TokenCache } from './token-cache';

/** Is this the cluster's SystemRootToken, bare or as `v2/<its built-in token uuid>/<secret>`? */
export function isRootToken(home: Readonly<ClusterConfig>, token: string): boolean {
  const v2 = parseV2Token(token);
  if (v2)
    return (
      v2.uuid === builtInUuids(home.ClusterID).rootToken &&
      safeEqual(v2.secret, home.SystemRootToken)
    );
  return safeEqual(token, home.SystemRootToken);
}

export interface Authenticator {
  home: Readonly<ClusterConfig>;
  cache: TokenCache;
  homeCore: CoreClient;
  /**
   * Tried for a token the cluster does not know (identity-provider access tokens, auth.md §10).
   * Returns the identity and when to stop trusting it, or null.
   */
  fallback?: (token: string) => Promise<{ identity: Identity; expiresAt: string | null } | null>;
}

/**
 * Who a token belongs to (auth.md §3): the root token here, anything else checked by the home
 * cluster's core and cached. 401 "Not logged in" for no token or one that is not valid.
 */
export async function authenticate(
  auth: Authenticator,
  token: string | null,
  remote: string | null,
): Promise<Identity> {
  if (!token) throw new NotLoggedInError();
  if (isRootToken(auth.home, token))
    return rootIdentity(auth.home.ClusterID, parseV2Token(token)?.secret ?? token);
  const cached = auth.cache.get(token, remote);
  if (cached) return cached;
  const res = await auth.homeCore.post<{ identity: Identity; expiresAt: string | null }>(
    '/_internal/tokens/validate',
    { token, remote },
  );
  const valid = res.status === 200 ? res.body : await auth.fallback?.(token);
  if (!valid) throw new NotLoggedInError();
  auth.cache.set(token, remote, valid.identity, valid.expiresAt);
  return valid.identity;
}
