import type { IncomingMessage, ServerResponse } from 'node:http';
import { EndpointNotFoundError, toErrorBody } from '@svc/errors';
import { authorizationToken } from '@svc/ids';
import type { HttpMetrics } from './metrics';
import { sendJson } from './json';

/** An app's answers to the operations endpoints (contract README, "Operations endpoints"). */
export interface Operations {
  /** `ManagementToken`; "" disables the endpoints (404). */
  token: string;
  /** Also accepted, even when `token` is "": the gateway reading its own cores' health. */
  internalToken?: string;
  metrics: HttpMetrics;
  /** null while the app can serve, else why not (its database does not answer). */
  ping(): Promise<string | null>;
  /** `/_health/all` (the gateway only): status and body. */
  all?(): Promise<{ ok: boolean; body: unknown }>;
  /** `/_health/vocabulary`: null while the vocabulary file in force is valid, else why not. */
  vocabulary?(): Promise<string | null>;
}

const PATHS = new Set(['/_health/ping', '/_health/all', '/_health/vocabulary', '/metrics']);

export const isOperationsPath = (pathname: string): boolean => PATHS.has(pathname);

/** Serves one operations request; a disabled one is 404 like any unknown path. */
export async function serveOperations(
  ops: Operations,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const head = req.method === 'HEAD';
  // the same header forms the API takes (auth.md §1): Bearer or OAuth2
  const given = authorizationToken(req.headers.authorization) ?? undefined;
  const internal = ops.internalToken !== undefined && given === ops.internalToken;
  const missing =
    (pathname === '/_health/all' && !ops.all) ||
    (pathname === '/_health/vocabulary' && !ops.vocabulary);
  if (missing || (ops.token === '' && !internal)) {
    sendJson(res, 404, toErrorBody(new EndpointNotFoundError()), head);
    return;
  }
  if (!internal && given !== ops.token) {
    sendJson(res, 401, { errors: ['authorization required'] }, head);
    return;
  }
  if (pathname === '/metrics') {
    const text = await ops.metrics.registry.metrics();
    res.writeHead(200, { 'Content-Type': ops.metrics.registry.contentType });
    res.end(head ? undefined : text);
  } else if (pathname === '/_health/all') {
    const { ok, body } = await ops.all!();
    sendJson(res, ok ? 200 : 503, body, head);
  } else {
    const error = pathname === '/_health/vocabulary' ? await ops.vocabulary!() : await ops.ping();
    if (error === null) sendJson(res, 200, { health: 'OK' }, head);
    else sendJson(res, 503, { health: 'ERROR', error }, head);
  }
}
