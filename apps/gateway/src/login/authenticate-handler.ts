import type { IncomingMessage } from 'node:http';
import type { Identity } from '@svc/ids';
import { NotLoggedInError, UnprocessableError } from '@svc/errors';
import type { GatewayDeps } from '../gateway-deps';
import { registerLogin } from './issue-token';
import { passwordProvider } from './providers';
import { checkReturnTo } from './return-to';
import { throttleFor } from './throttle';

/** What a gateway-served operation gets: the request, and the caller (null when public). */
export interface GatewayCall {
  req: IncomingMessage;
  identity: Identity | null;
  /** The cluster of this deployment the call is for (the home cluster unless routed). */
  cluster: string;
}

export type GatewayHandler = (
  deps: GatewayDeps,
  params: Readonly<Record<string, unknown>>,
  call: GatewayCall,
) => Promise<{ status: number; body: unknown }>;

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * `POST /svc/v1/users/authenticate` (auth.md §9.3): check the password with the provider,
 * then let the home core register the login and issue a token.
 */
export const authenticateHandler: GatewayHandler = async (deps, params, call) => {
  const { username, password } = params;
  if (!nonEmpty(username) || !nonEmpty(password))
    throw new UnprocessableError('username and password are required');
  const check = passwordProvider(deps.home);
  if (check === null)
    throw new UnprocessableError('username/password authentication is not available');
  const returnTo =
    params['return_to'] === undefined
      ? null
      : checkReturnTo(params['return_to'], deps.home.Login.TrustedClients).toString();
  const throttle = throttleFor(deps.home);
  const address = call.req.socket.remoteAddress ?? 'unknown';
  throttle.check(username, address);
  const login = await check(username, password);
  if (login === null) {
    throttle.failed(username, address);
    throw new NotLoggedInError(`authentication failed for user "${username}"`);
  }
  throttle.succeeded(username);
  return { status: 200, body: await registerLogin(deps, login, returnTo) };
};
