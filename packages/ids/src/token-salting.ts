import { parseV2Token, SALTED_SECRET_RE, saltedSecret } from './token';
import { clusterOf } from './uuid';

/**
 * The uuid of the local token record whose secret is `secret`, or null when the secret is not
 * one of this cluster's tokens (an identity-provider access token, for example).
 */
export type LocalTokenUuidOf = (secret: string) => string | null;

/**
 * The form in which `token` is sent to remote cluster `remoteClusterId` (the salting table of
 * outgoing tokens):
 *
 * - a v2 token issued by the remote cluster itself: unchanged;
 * - a v2 token whose last part is already 40 hex digits (salted): unchanged;
 * - any other v2 token, issued here or elsewhere: `v2/<uuid>/<hex HMAC-SHA1(secret, remote)>`;
 * - a bare secret of a local token: made `v2/<uuid>/<secret>` with the uuid from `localUuidOf`,
 *   then salted; a bare token that `localUuidOf` does not know is sent unchanged.
 *
 * Returns null for a bare token when no `localUuidOf` is given: whether it is a local secret
 * (which must never leave unsalted) is then unknown, and the caller has to look it up first.
 */
export function saltTokenFor(
  remoteClusterId: string,
  token: string,
  localUuidOf?: LocalTokenUuidOf,
): string | null {
  const v2 = parseV2Token(token);
  if (v2 !== null) {
    if (clusterOf(v2.uuid) === remoteClusterId) return token;
    if (SALTED_SECRET_RE.test(v2.secret)) return token;
    return `v2/${v2.uuid}/${saltedSecret(v2.secret, remoteClusterId)}`;
  }
  if (localUuidOf === undefined) return null;
  const uuid = localUuidOf(token);
  return uuid === null ? token : `v2/${uuid}/${saltedSecret(token, remoteClusterId)}`;
}
