import { isTrustedOrigin } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';

/** `scheme://host[:port]` with the default port dropped: URL.origin does exactly that. */
export const originOf = (url: URL): string => url.origin;

/**
 * `return_to` must be an absolute http(s) URL without userinfo whose origin is listed in
 * Login.TrustedClients (`https://*.example.com` matches subdomains) — auth.md §9.1.
 */
export function checkReturnTo(returnTo: unknown, trustedClients: readonly string[]): URL {
  if (typeof returnTo !== 'string' || returnTo === '') {
    throw new UnprocessableError('return_to parameter is required');
  }
  let url: URL;
  try {
    url = new URL(returnTo);
  } catch {
    throw new UnprocessableError('requesting site is not listed in Login.TrustedClients');
  }
  const allowed =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    isTrustedOrigin(url, trustedClients);
  if (!allowed)
    throw new UnprocessableError('requesting site is not listed in Login.TrustedClients');
  return url;
}

/** return_to with `api_token=<token>` added (with `&` if it already has a query). */
export function withApiToken(returnTo: URL, token: string): string {
  const url = new URL(returnTo.toString());
  url.searchParams.append('api_token', token);
  return url.toString();
}
