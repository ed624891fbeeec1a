import { ApiError } from '@svc/errors';
import type { GatewayDeps } from '../gateway-deps';
import type { LoginIdentity } from './types';

export interface IssuedToken {
  uuid: string;
  api_token: string;
  [field: string]: unknown;
}

/**
 * The home core registers the user (auth.md §11), finds or creates the api_client of return_to
 * (§7) and issues the token, in one transaction. Its errors (e.g. 401 "multiple users match
 * email …") are passed on as they are.
 */
export async function registerLogin(
  deps: GatewayDeps,
  login: LoginIdentity,
  returnTo: string | null,
): Promise<IssuedToken> {
  const res = await deps.auth.homeCore.post<unknown>('/_internal/login', { login, returnTo });
  if (res.status !== 200) {
    const errors = (res.body as { errors?: string[] } | null)?.errors ?? ['login failed'];
    throw new ApiError(res.status, errors);
  }
  return res.body as IssuedToken;
}

/** The new token as `v2/<uuid>/<secret>`, the form added to return_to. */
export async function issueLoginToken(
  deps: GatewayDeps,
  login: LoginIdentity,
  returnTo: string,
): Promise<string> {
  const token = await registerLogin(deps, login, returnTo);
  return `v2/${token.uuid}/${token.api_token}`;
}
