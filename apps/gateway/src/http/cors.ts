import type { RequestHandler } from 'express';

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS, PUT, POST, PATCH, DELETE',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Type, X-Http-Method-Override, X-Request-Id',
  'Access-Control-Max-Age': '86400',
};

const isApiPath = (path: string): boolean =>
  path === '/svc/v1' || path.startsWith('/svc/v1/') || path.startsWith('/discovery/');

/**
 * Every /svc/v1 and /discovery response carries the CORS headers, errors included; OPTIONS
 * there answers 200 with an empty body and needs no token (requests-and-errors.md §2, §6).
 */
export const cors: RequestHandler = (req, res, next) => {
  if (!isApiPath(req.path)) return next();
  res.set(CORS_HEADERS);
  if (req.method === 'OPTIONS') {
    res.status(200).end();
    return;
  }
  next();
};
