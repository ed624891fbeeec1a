import type { RequestHandler } from 'express';
import type { ClusterConfig } from '@svc/config';
import { lastQueryValues } from '@svc/contract';
import type { GatewayDeps } from '../gateway-deps';
import { sendLoginForm } from './form';
import { IdentityProvider } from './identity-provider';
import { oidcLogin } from './oidc-login';
import { checkReturnTo } from './return-to';

const providers = new WeakMap<Readonly<ClusterConfig>, IdentityProvider>();

/**
 * The cluster's OpenID Connect provider, one per cluster configuration, shared by `/login` and
 * the access-token check so that discovery and keys are fetched once.
 */
export function identityProviderFor(home: Readonly<ClusterConfig>): IdentityProvider {
  let provider = providers.get(home);
  if (!provider) {
    provider = new IdentityProvider(home.Login.OpenIDConnect.Issuer);
    providers.set(home, provider);
  }
  return provider;
}

/** `GET /login`: the OpenID Connect redirect dance (auth.md §9.2), or the password form (§9.7). */
export function loginPage(deps: GatewayDeps): RequestHandler {
  if (deps.home.Login.OpenIDConnect.Enable) return oidcLogin(deps, identityProviderFor(deps.home));
  return (req, res) => {
    const query = lastQueryValues(req.query as Record<string, unknown>);
    const returnTo = checkReturnTo(query['return_to'], deps.home.Login.TrustedClients);
    sendLoginForm(res, returnTo.toString(), deps.home.ClusterID);
  };
}
