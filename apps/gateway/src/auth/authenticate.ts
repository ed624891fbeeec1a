import type { ClusterConfig } from '@svc/config';
import { builtInUuids } from '@svc/contract';
import { parseV2Token, safeEqual, type Identity } from '@svc/ids';
import type { CoreClient } from '../core-client';
import type { TokenCache } from './token-cache';

/** Is this the cluster's SystemRootToken, bare or as `v2/<its built-in token uuid>/<secret>`? */
export function isRootToken(cluster: Readonly<ClusterConfig>, token: string): boolean {
  const v2 = parseV2Token(token);
  if (v2)
    return (
      v2.uuid === builtInUuids(cluster.ClusterID).rootToken &&
      safeEqual(v2.secret, cluster.SystemRootToken)
    );
  return safeEqual(token, cluster.SystemRootToken);
}

/** A checked token: who it is, and until when the answer may be trusted. */
export interface ValidToken {
  identity: Identity;
  expiresAt: string | null;
  /** A bare local secret as `v2/<uuid>/<secret>`: the form salted for other clusters. */
  v2Form?: string;
}

/** What the login code needs of authentication at the home cluster. */
export interface Authenticator {
  home: Readonly<ClusterConfig>;
  cache: TokenCache;
  homeCore: CoreClient;
  /**
   * Tried for a token the cluster does not know (identity-provider access tokens, auth.md §10).
   * Returns the identity and when to stop trusting it, or null.
   */
  fallback?: (token: string) => Promise<ValidToken | null>;
}

/** The cluster's own check of a token (auth.md §3 steps 2–4, 6), by its core; null if refused. */
export async function validateAt(
  core: CoreClient,
  token: string,
  remote: string | null,
): Promise<ValidToken | null> {
  const res = await core.post<ValidToken>('/_internal/tokens/validate', { token, remote });
  return res.status === 200 ? res.body : null;
}
