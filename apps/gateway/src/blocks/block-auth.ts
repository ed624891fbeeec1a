import type { Request } from 'express';
import { lastQueryValues, presentedToken } from '@svc/contract';
import { ApiError } from '@svc/errors';
import type { Identity } from '@svc/ids';
import { isRootToken } from '../auth/authenticate';
import { scopesPermit } from '../auth/scopes';
import type { GatewayDeps } from '../gateway-deps';
import { BlockHttpError } from './respond';

/** The presented token (header, else `api_token`), or null. */
export const blockToken = (req: Request): string | null =>
  presentedToken(
    req.headers.authorization,
    lastQueryValues(req.query as Record<string, unknown>),
  ) || null;

/**
 * A writer (storage.md §4): a valid token of an active user whose scopes permit
 * `POST /svc/v1/collections`.
 */
export async function authorizeWrite(
  deps: GatewayDeps,
  token: string | null,
  cluster = deps.home.ClusterID,
): Promise<Identity> {
  let identity: Identity;
  try {
    identity = await deps.identities.forCluster(cluster, token, null);
  } catch (err) {
    if (err instanceof ApiError) throw new BlockHttpError(err.status, err.messages[0]!);
    throw err;
  }
  if (!identity.isActive) throw new BlockHttpError(403, 'Forbidden: user is not active');
  if (!scopesPermit(identity.scopes, 'POST', '/svc/v1/collections'))
    throw new BlockHttpError(403, 'Forbidden');
  return identity;
}

/** Administration: the root token only (401 without a token, 403 with another). */
export function authorizeAdmin(deps: GatewayDeps, token: string | null): void {
  if (!token) throw new BlockHttpError(401, 'Not logged in');
  if (!isRootToken(deps.home, token)) throw new BlockHttpError(403, 'Forbidden');
}
