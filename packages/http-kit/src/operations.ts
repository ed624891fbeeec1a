import type { IncomingMessage, ServerResponse } from 'node:http';
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
}

const PATHS = new Set(['/_health/ping', '/_health/all', '/metrics']);

export const isOperationsPath = (pathname: string): boolean => PATHS.has(pathname);

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** Serves one operations request; false when the path is not one (or is disabled: 404 then). */
export async function serveOperations(
  ops: Operations,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (pathname === '/_health/all' && !ops.all) return false;
  const given = bearer(req);
  const internal = ops.internalToken !== undefined && given === ops.internalToken;
  if (ops.token === '' && !internal) return false;
  const head = req.method === 'HEAD';
  if (!internal && given !== ops.token) {
    sendJson(res, 401, { errors: ['authorization required'] }, head);
    return true;
  }
  if (pathname === '/metrics') {
    const text = await ops.metrics.registry.metrics();
    res.writeHead(200, { 'Content-Type': ops.metrics.registry.contentType });
    res.end(head ? undefined : text);
  } else if (pathname === '/_health/all') {
    const { ok, body } = await ops.all!();
    sendJson(res, ok ? 200 : 503, body, head);
  } else {
    const error = await ops.ping();
    if (error === null) sendJson(res, 200, { health: 'OK' }, head);
    else sendJson(res, 503, { health: 'ERROR', error }, head);
  }
  return true;
}
