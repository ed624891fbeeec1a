import { noteRequest, redactUrl } from '@svc/http-kit';
import type { Express, NextFunction, Request, Response } from 'express';
import type { GatewayDeps } from '../gateway-deps';
import { davLock, davOptions, propfind } from './dav';
import { readPath } from './read';
import { openCollection } from './resolve';
import { FileHttpError, SECURITY_HEADERS, sendFileText } from './respond';
import { SelfApi } from './self-api';
import { isFilePath, parseTarget } from './target';
import { redirectTokenToCookie } from './tokens';
import { writePath } from './write';

const WRITES = new Set(['PUT', 'DELETE', 'MKCOL', 'MOVE', 'COPY']);

async function serve(deps: GatewayDeps, api: SelfApi, req: Request, res: Response) {
  const target = parseTarget(req.path);
  if (req.method === 'OPTIONS') return davOptions(res);
  if (redirectTokenToCookie(req, res)) return;
  if (WRITES.has(req.method)) return writePath(deps, api, req, res, target);
  if (req.method === 'LOCK') return davLock(res);
  if (req.method === 'UNLOCK') {
    res.status(204).end();
    return;
  }
  const opened = await openCollection(deps, api, req, target);
  if (req.method === 'PROPFIND') return propfind(req, res, target, opened);
  if (req.method === 'GET' || req.method === 'HEAD')
    return readPath(deps, req, res, target, opened);
  throw new FileHttpError(405, 'method not allowed');
}

/**
 * File access at `/c=<collection>/<path>` (storage.md §9): reads and WebDAV writes, as a client
 * of this gateway's own API with the caller's token.
 */
export function fileAccess(deps: GatewayDeps, api: SelfApi) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (!isFilePath(req.path)) return next();
    noteRequest(res, { route: '/c={collection}/{path}' });
    res.set(SECURITY_HEADERS);
    try {
      await serve(deps, api, req, res);
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (!(err instanceof FileHttpError))
        deps.log.error(
          { err, method: req.method, url: redactUrl(req.path) },
          'file request failed',
        );
      const e = err instanceof FileHttpError ? err : new FileHttpError(500, 'internal error');
      res.set(e.headers);
      if (!req.complete) res.setHeader('Connection', 'close');
      sendFileText(res, e.status, e.message, req.method === 'HEAD');
    }
  };
}

/**
 * Mounts file access. Its API connections go to this gateway's own server, so they end when the
 * server closes its connections.
 */
export function mountFiles(app: Express, deps: GatewayDeps): void {
  app.use(fileAccess(deps, new SelfApi()));
}
