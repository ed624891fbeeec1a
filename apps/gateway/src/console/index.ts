import { resolve } from 'node:path';
import type { Express, NextFunction, Request, Response } from 'express';
import { noteRequest } from '@svc/http-kit';
import { readConsoleFiles, type ConsoleFile } from './files';

/** The console's build, beside the gateway in the repository and in the image. */
export const CONSOLE_DIR = resolve(__dirname, '../../../console/dist');

/**
 * The console may load scripts, styles, images and fonts from this origin only, and call only
 * this origin's API; nothing may frame it. Every console answer carries it.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** Hashed build outputs never change under their name; everything else is checked each time. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function pickEncoding(req: Request, file: ConsoleFile): ['br' | 'gzip' | null, Buffer] {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (file.br && /\bbr\b/.test(accepted)) return ['br', file.br];
  if (file.gzip && /\bgzip\b/.test(accepted)) return ['gzip', file.gzip];
  return [null, file.body];
}

function send(req: Request, res: Response, file: ConsoleFile, cache: string): void {
  res.set(HEADERS);
  res.set({ 'Cache-Control': cache, ETag: file.etag, Vary: 'Accept-Encoding' });
  if (req.headers['if-none-match'] === file.etag) {
    res.status(304).end();
    return;
  }
  const [encoding, body] = pickEncoding(req, file);
  res.set({ 'Content-Type': file.type, 'Content-Length': String(body.length) });
  if (encoding) res.set('Content-Encoding', encoding);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/** The API's and the operations' namespaces: an unknown path there is an unknown endpoint. */
const NOT_CONSOLE = /^\/(svc|discovery|_[^/]*)(\/|$)/;

const NOT_BUILT =
  '<!doctype html><title>svc console</title><p>The web console is not built. Run <code>pnpm build</code>, then reload.</p>';

/**
 * The web console at the gateway's root: its files, and index.html for every other GET path
 * (the console's own routes), so a link to any console page works. Paths under /assets/ that
 * are not files answer 404: a stale page asking for an old script must not get HTML. Other
 * methods, and paths in the API's namespaces (/svc/, /discovery/, /_…), fall through to the
 * 404 "API endpoint not found" after this.
 */
export function consoleHandler(dir = CONSOLE_DIR) {
  let files: Map<string, ConsoleFile> | null = null;
  return (req: Request, res: Response, next: NextFunction): void => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_CONSOLE.test(req.path))
      return next();
    // One label for every console path: the path itself is the console's and may hold anything.
    noteRequest(res, { route: '/{console}' });
    files ??= readConsoleFiles(dir);
    if (!files) {
      res.status(503).set(HEADERS).type('html').set('Cache-Control', 'no-store').end(NOT_BUILT);
      return;
    }
    const file = files.get(req.path);
    if (file) return send(req, res, file, req.path.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);
    if (req.path.startsWith('/assets/')) {
      res.status(404).set(HEADERS).type('text').set('Cache-Control', 'no-store').end('not found');
      return;
    }
    send(req, res, files.get('/index.html')!, REVALIDATE);
  };
}

/** Mounts the console after every other root route (requests-and-errors: the fallback). */
export function mountConsole(app: Express): void {
  app.use(consoleHandler());
}
