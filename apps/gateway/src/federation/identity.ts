import { endpointId, type Endpoint } from '@svc/contract';
import type { Identity } from '@svc/ids';

/**
 * The identity a core gets for a call: the presented secret travels only to
 * `api_client_authorizations/current` (which echoes it), and not when a remote asks; the
 * token as that cluster received it travels with every call, for locator signatures
 * (storage.md §2).
 */
export function identityForCall(
  identity: Identity,
  endpoint: Endpoint,
  remote: string | null,
  token: string | null = null,
): Identity {
  const echoes = endpointId(endpoint) === 'svc.api_client_authorizations.current' && !remote;
  const { echoToken, token: _cached, ...rest } = identity;
  return {
    ...rest,
    ...(echoes && echoToken !== undefined ? { echoToken } : {}),
    ...(token ? { token } : {}),
  };
}
