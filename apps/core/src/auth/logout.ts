import { anonymousIdentity, builtInUuids } from '@svc/contract';
import { statement } from '../db/db';
import { nowCanonical } from '../resources/common/row';
import type { LoginDeps } from './register-login';
import { validateToken } from './validate-token';

/**
 * `GET /logout` (auth.md §9.8): the presented token, if valid here and a stored record, expires
 * now. Returns the record's uuid so the gateway can forget it; null when nothing was expired
 * (not valid, the root token, the anonymous token).
 */
export async function logoutToken(
  deps: LoginDeps,
  token: string,
): Promise<{ tokenUuid: string | null }> {
  const valid = await validateToken(deps.db, deps.cluster, { token, remote: null });
  const uuid = valid?.identity.tokenUuid ?? null;
  const c = deps.cluster.ClusterID;
  if (
    uuid === null ||
    uuid === builtInUuids(c).rootToken ||
    uuid === anonymousIdentity(c).tokenUuid
  ) {
    return { tokenUuid: null };
  }
  // The same clock as every other write, so modified_at (and the etag) moves as usual.
  await deps.db.query(
    statement(
      `UPDATE api_client_authorizations SET expires_at = $2, modified_at = $2, modified_by_user_uuid = owner_uuid
       WHERE uuid = $1 AND (expires_at IS NULL OR expires_at > $2)`,
      [uuid, nowCanonical()],
    ),
  );
  return { tokenUuid: uuid };
}
