import type { Endpoint } from '@svc/contract';
import type { TokenCache } from './token-cache';

/**
 * After a successful write through this gateway, forget cached identities it may have changed:
 * a token record (scopes, expiry, deletion), a user (flags), or any api_client (trust).
 */
export function evictAfterWrite(
  cache: TokenCache,
  endpoint: Endpoint,
  uuid: string | undefined,
): void {
  if (endpoint.name === 'list' || endpoint.name === 'get' || endpoint.name === 'current') return;
  switch (endpoint.resource) {
    case 'api_client_authorizations':
      if (uuid) cache.evictWhere((i) => i.tokenUuid === uuid);
      return;
    case 'users':
      // A merge moves tokens from one user to another (and may name neither in `uuid`).
      if (endpoint.name === 'merge') cache.clear();
      else if (uuid) cache.evictWhere((i) => i.userUuid === uuid);
      return;
    case 'api_clients':
      cache.clear();
      return;
    default:
      return;
  }
}
