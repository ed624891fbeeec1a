import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS, PUT, POST, PATCH, DELETE',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Type, X-Http-Method-Override, X-Request-Id',
  'Access-Control-Max-Age': '86400',
};

/** The pairs, listed once (every API answer sets them). */
const CORS_PAIRS = Object.entries(CORS_HEADERS);

export function setCorsHeaders(res: ServerResponse): void {
  for (const [name, value] of CORS_PAIRS) res.setHeader(name, value);
}

/**
 * Every /discovery response carries the CORS headers, errors included; OPTIONS there answers
 * 200 with an empty body (requests-and-errors.md §2, §6). The API path sets them itself.
 */
export const cors: RequestHandler = (req, res, next) => {
  if (!req.path.startsWith('/discovery/')) return next();
  setCorsHeaders(res);
  if (req.method === 'OPTIONS') {
    res.status(200).end();
    return;
  }
  next();
};
