import type { RequestHandler } from 'express';
import { requestIdFrom } from '@svc/ids';

/** Echoes a valid X-Request-Id or makes one; the same id travels to the core. */
export const requestId: RequestHandler = (req, res, next) => {
  const id = requestIdFrom(req.headers['x-request-id']);
  req.headers['x-request-id'] = id;
  res.setHeader('X-Request-Id', id);
  next();
};
