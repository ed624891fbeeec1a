import { NotLoggedInError } from '@svc/errors';
import { parseV2Token, safeEqual, type Identity } from '@svc/ids';
import type { ClusterConfig } from '@svc/config';

const rootTokenUuid = (c: string): string => `${c}-gj3su-000000000000000`;
const systemUserUuid = (c: string): string => `${c}-tpzed-000000000000000`;

/** Is this the cluster's SystemRootToken, bare or as `v2/<c>-gj3su-000000000000000/<secret>`? */
export function isRootToken(home: Readonly<ClusterConfig>, token: string): boolean {
  const v2 = parseV2Token(token);
  if (v2) return v2.uuid === rootTokenUuid(home.ClusterID) && safeEqual(v2.secret, home.SystemRootToken);
  return safeEqual(token, home.SystemRootToken);
}

/** The root token acts as the system user with every scope (auth.md §4). */
export function rootIdentity(clusterId: string, echoToken: string): Identity {
  return {
    userUuid: systemUserUuid(clusterId),
    tokenUuid: rootTokenUuid(clusterId),
    scopes: ['all'],
    apiClientUuid: `${clusterId}-ozdt8-000000000000000`,
    echoToken,
  };
}

/** Who a token belongs to; 401 "Not logged in" for no token or one that is not valid. */
export function authenticate(home: Readonly<ClusterConfig>, token: string | null): Identity {
  if (!token) throw new NotLoggedInError();
  if (isRootToken(home, token)) return rootIdentity(home.ClusterID, token);
  throw new NotLoggedInError();
}
