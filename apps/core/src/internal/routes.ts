import { NotFoundError, UnprocessableError } from '@svc/errors';
import type { ClusterConfig } from '@svc/config';
import type { Db } from '../db/db';
import { validateToken } from '../auth/validate-token';
import type { LoginIdentity } from '@svc/contract';
import { registerLogin } from '../auth/register-login';
import { storeAccessToken } from '../auth/access-token';
import { logoutToken } from '../auth/logout';
import { rememberRemoteToken, remoteValidationFrom } from '../auth/remote-tokens';

/** Operations only the gateway calls, under `/_internal/`, signed like every other call. */
export type InternalHandler = (
  deps: { db: Db; cluster: Readonly<ClusterConfig> },
  body: Record<string, unknown>,
) => Promise<unknown>;

const str = (body: Record<string, unknown>, key: string): string => {
  const v = body[key];
  if (typeof v !== 'string') throw new UnprocessableError(`${key} must be a string`);
  return v;
};

const INTERNAL: Readonly<Record<string, InternalHandler>> = {
  /** Token → identity for the gateway; 404 when the token is not valid here. */
  'POST /_internal/tokens/validate': async ({ db, cluster }, body) => {
    const remote = body['remote'];
    const valid = await validateToken(db, cluster, {
      token: str(body, 'token'),
      remote: typeof remote === 'string' ? remote : null,
    });
    if (!valid) throw new NotFoundError('token not valid');
    return valid;
  },
  /** A token of another cluster, validated at its issuer: mirror its user, remember it. */
  'POST /_internal/remote-tokens/remember': (deps, body) =>
    rememberRemoteToken(deps, remoteValidationFrom(body)),
  /** A login the gateway checked with its provider: register the user, issue a token. */
  'POST /_internal/login': async (deps, body) => {
    const login = body['login'] as LoginIdentity;
    if (typeof login !== 'object' || login === null || typeof login.identityUrl !== 'string') {
      throw new UnprocessableError('login must describe the identity');
    }
    const returnTo = typeof body['returnTo'] === 'string' ? body['returnTo'] : null;
    return registerLogin(deps, login, returnTo);
  },
  /** `GET /logout`: the presented token expires now; answers the expired record's uuid or null. */
  'POST /_internal/logout': async (deps, body) => logoutToken(deps, str(body, 'token')),
  /** An identity-provider access token the gateway checked with the provider (auth.md §10). */
  'POST /_internal/access-token': async (deps, body) => {
    const login = body['login'] as LoginIdentity;
    if (typeof login !== 'object' || login === null || typeof login.identityUrl !== 'string') {
      throw new UnprocessableError('login must describe the identity');
    }
    return storeAccessToken(deps, login, str(body, 'cacheKey'));
  },
};

export function internalHandler(method: string, path: string): InternalHandler | undefined {
  return INTERNAL[`${method} ${path}`];
}
