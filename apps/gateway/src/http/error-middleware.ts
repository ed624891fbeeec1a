import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { answerError } from '@svc/http-kit';

/** Errors of the express routes (discovery, login) go to the one mapping. */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const requestId = String(req.headers['x-request-id'] ?? '');
    answerError(res, err, log, { method: req.method, url: req.originalUrl, requestId });
  };
}
