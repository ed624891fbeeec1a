import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { requestIdFrom } from '@svc/ids';
import type { HttpMetrics } from './metrics';
import { isOperationsPath, serveOperations, type Operations } from './operations';
import { factsOf, noteRequest, UNMATCHED_ROUTE } from './request-facts';

/** Where request lines go: pino's `info`/`debug(object, message)` are enough. */
export interface RequestLog {
  info(details: Record<string, unknown>, message: string): void;
  debug(details: Record<string, unknown>, message: string): void;
  isLevelEnabled(level: string): boolean;
}

function record(
  req: IncomingMessage,
  res: ServerResponse,
  started: bigint,
  log: RequestLog,
  metrics: HttpMetrics,
): void {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const facts = factsOf(res);
  // Only a template a handler matched: the raw path may hold a token (/c=…/t=…, %-encoded).
  const route = facts.route ?? UNMATCHED_ROUTE;
  const method = req.method ?? 'GET';
  const status = res.writableFinished ? res.statusCode : 499; // 499: the client went away
  const labels = { route, method, status: String(status) };
  metrics.requests.inc(labels);
  metrics.duration.observe(labels, seconds);
  const level = facts.quiet && status === 200 ? 'debug' : 'info';
  if (!log.isLevelEnabled(level)) return;
  // Only these fields: never a header, a query string or a body, so never a token or secret.
  log[level](
    {
      reqId: req.headers['x-request-id'],
      method,
      route,
      status,
      ms: Math.round(seconds * 1e4) / 10,
      ...(facts.user ? { user: facts.user } : {}),
      ...(facts.cluster ? { cluster: facts.cluster } : {}),
      ...(facts.errorToken ? { errorToken: facts.errorToken } : {}),
    },
    'request',
  );
}

/**
 * Wraps an app's listener: settles the request id once (handlers read the header), answers the
 * operations endpoints, and writes one log line and the metrics of every request when its
 * answer ends.
 */
export function observedListener(
  listener: RequestListener,
  deps: { log: RequestLog; ops: Operations },
): RequestListener {
  const { log, ops } = deps;
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    req.headers['x-request-id'] = requestIdFrom(req.headers['x-request-id']);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      record(req, res, started, log, ops.metrics);
    };
    res.once('finish', finish);
    res.once('close', finish);
    const pathname = (req.url ?? '/').split('?')[0]!;
    if (!isOperationsPath(pathname)) {
      listener(req, res);
      return;
    }
    noteRequest(res, { route: pathname });
    serveOperations(ops, pathname, req, res).catch((err: unknown) => {
      res.destroy(err as Error);
    });
  };
}
