import type { RequestHandler } from 'express';
import { lastQueryValues, presentedToken } from '@svc/contract';
import { isRootToken } from '../auth/authenticate';
import type { GatewayDeps } from '../gateway-deps';
import { checkReturnTo } from './return-to';

/**
 * ExternalURL, or the relative `/`: never a URL built from the request's Host
 * (docs/api/auth.md §9.8).
 */
const afterLogout = (deps: GatewayDeps): string =>
  deps.home.ExternalURL !== '' ? deps.home.ExternalURL : '/';

/** Expires the presented token at the home core and forgets it here; anything else is ignored. */
async function expire(deps: GatewayDeps, token: string): Promise<void> {
  if (isRootToken(deps.home, token)) return;
  const res = await deps.auth.homeCore.post<{ tokenUuid: string | null }>('/_internal/logout', {
    token,
  });
  const uuid = res.status === 200 ? res.body.tokenUuid : null;
  if (uuid) deps.auth.cache.evictWhere((identity) => identity.tokenUuid === uuid);
}

/**
 * `GET /logout?return_to=<url>` (auth.md §9.8): a valid presented token (header or api_token)
 * expires now; then 302 to return_to (checked as in §9.1 first), to ExternalURL, or to `/`.
 */
export function logout(deps: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const query = lastQueryValues(req.query as Record<string, unknown>);
    const returnTo = query['return_to'];
    const target =
      returnTo === undefined || returnTo === ''
        ? afterLogout(deps)
        : checkReturnTo(returnTo, deps.home.Login.TrustedClients).toString();
    const token = presentedToken(req.headers.authorization, query);
    if (token) await expire(deps, token);
    res.status(302).set({ Location: target, 'Cache-Control': 'no-store' }).end();
  };
}
