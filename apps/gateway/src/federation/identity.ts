import { endpointId, type Endpoint } from '@svc/contract';
import type { Identity } from '@svc/ids';

/**
 * The identity a core gets for a call: the presented secret travels only to
 * `api_client_authorizations/current` (which echoes it), and not when a remote asks.
 */
export function identityForCall(
  identity: Identity,
  endpoint: Endpoint,
  remote: string | null,
): Identity {
  const echoes = endpointId(endpoint) === 'svc.api_client_authorizations.current' && !remote;
  const { echoToken, ...rest } = identity;
  return echoes && echoToken !== undefined ? { ...rest, echoToken } : rest;
}
