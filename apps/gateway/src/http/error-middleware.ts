import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { ApiError, internalError, toErrorBody } from '@svc/errors';
import { sendJson } from '@svc/http-kit';

/** The gateway's only error→HTTP mapping. */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const apiError = err instanceof ApiError ? err : internalError();
    if (apiError.status >= 500)
      log.error({ err, method: req.method, url: req.originalUrl }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    sendJson(res, apiError.status, toErrorBody(apiError), req.method === 'HEAD');
  };
}
