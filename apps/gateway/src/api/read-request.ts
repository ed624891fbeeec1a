import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { lastQueryValues, parseBody, preRoute, type RequestParts } from '@svc/contract';
import { readBody } from '@svc/http-kit';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function splitUrl(url: string): { pathname: string; search: string } {
  const q = url.indexOf('?');
  return q < 0
    ? { pathname: url, search: '' }
    : { pathname: url.slice(0, q), search: url.slice(q + 1) };
}

/**
 * Reads what the API needs from an HTTP request, in the contract's order: the route (404,
 * and 405 where no override can apply) before the body, then the body within
 * `API.MaxRequestSize` (413), parsed once. The raw body is kept for a pass-through.
 */
export async function readApiRequest(
  req: IncomingMessage,
  pathname: string,
  search: string,
  maxBytes: number,
): Promise<{ parts: RequestParts; raw: Buffer }> {
  const method = req.method ?? 'GET';
  preRoute(method, pathname);
  const raw = await readBody(req, maxBytes);
  const parts: RequestParts = {
    method,
    pathname,
    query: lastQueryValues(parseQueryString(search) as Record<string, unknown>),
    body: await parseBody(header(req, 'content-type'), raw),
    methodOverride: header(req, 'x-http-method-override'),
    authorization: header(req, 'authorization'),
  };
  return { parts, raw };
}
