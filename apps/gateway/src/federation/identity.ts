import { builtInUuids, endpointId, rootIdentity, type Endpoint } from '@svc/contract';
import type { Identity } from '@svc/ids';

/** The deployment's root acts as root on each of its clusters. */
function asRootOf(identity: Identity, cluster: string, home: string): Identity {
  return identity.tokenUuid === builtInUuids(home).rootToken
    ? rootIdentity(cluster, identity.echoToken)
    : identity;
}

/**
 * The identity a core gets for a call: the presented secret travels only to
 * `api_client_authorizations/current` (which echoes it), and not when a remote asks.
 */
export function identityForCall(
  identity: Identity,
  endpoint: Endpoint,
  remote: string | null,
  cluster: string,
  home: string,
): Identity {
  const echoes = endpointId(endpoint) === 'svc.api_client_authorizations.current' && !remote;
  const { echoToken, ...rest } = asRootOf(identity, cluster, home);
  return echoes && echoToken !== undefined ? { ...rest, echoToken } : rest;
}
