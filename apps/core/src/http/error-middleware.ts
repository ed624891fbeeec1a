import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { DatabaseOutage } from '../db/outage';
import { requestIdFrom } from '@svc/ids';
import { answerError } from './answer-error';

/** Errors of the express routes (internal operations) go to the one mapping. */
export function errorMiddleware(log: Logger, outage: DatabaseOutage): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    answerError(res, err, log, { method: req.method, url: req.originalUrl, requestId }, outage);
  };
}
