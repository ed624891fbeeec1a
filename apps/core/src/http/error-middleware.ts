import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { ApiError, internalError, toErrorBody } from '@svc/errors';
import { translatePgError } from '../db/pg-error';
import { sendJson } from '@svc/http-kit';

/** The only place an error becomes an HTTP answer: the contract's `{errors, error_token}`. */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const translated = translatePgError(err);
    const apiError = translated instanceof ApiError ? translated : internalError();
    if (apiError.status >= 500) {
      log.error({ err, method: req.method, url: req.originalUrl }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendJson(res, apiError.status, toErrorBody(apiError), req.method === 'HEAD');
  };
}
