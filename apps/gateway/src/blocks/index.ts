import { noteRequest, redactUrl } from '@svc/http-kit';
import type { Express, NextFunction, Request, Response } from 'express';
import type { GatewayDeps } from '../gateway-deps';
import { blockIndex, blockMounts } from './admin';
import { getBlock } from './get';
import { putBlock } from './put';
import { BLOCK_CORS_HEADERS, BlockHttpError, sendText } from './respond';
import { WriteLimiter } from './write-limit';

/** Paths of the gateway's root that belong to something else. */
const RESERVED = /^\/(svc|discovery|login|logout|c=|_)/;

type Route =
  { kind: 'block'; path: string } | { kind: 'index'; prefix: string } | { kind: 'mounts' };

/** The label of each operation in logs and metrics. */
const ROUTE_LABELS: Record<Route['kind'], string> = {
  block: '/{locator}',
  index: '/index/{prefix}',
  mounts: '/mounts',
};

/**
 * Which block-service operation a path is, or null. PUT takes any one-segment path (a bad one
 * gets 400 "invalid locator"); reads take paths that start like a locator.
 */
function routeOf(req: Request): Route | null {
  const path = req.path;
  if (RESERVED.test(path)) return null;
  if (path === '/mounts') return { kind: 'mounts' };
  const index = /^\/index(?:\/([^/]*))?$/.exec(path);
  if (index) return { kind: 'index', prefix: index[1] ?? '' };
  const segment = /^\/([^/]+)$/.exec(path)?.[1];
  if (segment === undefined) return null;
  const looksLikeLocator = /^[0-9a-fA-F]{32}/.test(segment) || segment.includes('+');
  if (req.method === 'PUT' || req.method === 'OPTIONS' || looksLikeLocator)
    return { kind: 'block', path: segment };
  return null;
}

async function serve(
  deps: GatewayDeps,
  limiter: WriteLimiter,
  req: Request,
  res: Response,
  route: Route,
) {
  if (route.kind === 'mounts') {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new BlockHttpError(405, 'method not allowed');
    return blockMounts(deps, req, res);
  }
  if (route.kind === 'index') {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new BlockHttpError(405, 'method not allowed');
    return blockIndex(deps, req, res, route.prefix);
  }
  if (req.method === 'PUT') return putBlock(deps, limiter, req, res, route.path);
  if (req.method === 'GET' || req.method === 'HEAD')
    return getBlock(deps, limiter, req, res, route.path);
  throw new BlockHttpError(405, 'method not allowed');
}

/**
 * The block service at the gateway's root (storage.md §4): `PUT /<md5>`, `GET|HEAD /<locator>`,
 * `/index`, `/mounts`. Every answer carries the block CORS headers; errors are plain text.
 */
export function blockService(deps: GatewayDeps) {
  const limiter = new WriteLimiter();
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const route = routeOf(req);
    if (!route) return next();
    noteRequest(res, { route: ROUTE_LABELS[route.kind] });
    res.set(BLOCK_CORS_HEADERS);
    if (req.method === 'OPTIONS') {
      res.status(200).setHeader('Content-Length', '0');
      res.end();
      return;
    }
    try {
      await serve(deps, limiter, req, res, route);
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (!(err instanceof BlockHttpError)) {
        deps.log.error(
          { err, method: req.method, url: redactUrl(req.originalUrl) },
          'block request failed',
        );
      }
      const status = err instanceof BlockHttpError ? err.status : 500;
      // Whatever of the body was not read is not worth reading.
      if (!req.complete) res.setHeader('Connection', 'close');
      sendText(
        res,
        status,
        err instanceof BlockHttpError ? err.message : 'internal error',
        req.method === 'HEAD',
      );
    }
  };
}

export const mountBlocks = (app: Express, deps: GatewayDeps): void => {
  app.use(blockService(deps));
};
