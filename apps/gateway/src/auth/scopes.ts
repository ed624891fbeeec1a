/**
 * Token scopes (auth.md §8): pure functions of the scopes, the effective method and the path.
 */

const ALWAYS_PERMITTED = 'GET /svc/v1/api_client_authorizations/current';

/** `<METHOD> <path>`: PUT is checked as PATCH, HEAD as GET, one trailing `/` trimmed. */
export function requestString(method: string, path: string): string {
  const m = method === 'PUT' ? 'PATCH' : method === 'HEAD' ? 'GET' : method;
  const p = path !== '/' && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${m} ${p}`;
}

/** Permitted when an entry is `all`, equals the request, or ends with `/` and prefixes it. */
export function scopesPermit(scopes: readonly string[], method: string, path: string): boolean {
  const request = requestString(method, path);
  if (request === ALWAYS_PERMITTED) return true;
  return scopes.some(
    (s) => s === 'all' || s === request || (s.endsWith('/') && request.startsWith(s)),
  );
}
