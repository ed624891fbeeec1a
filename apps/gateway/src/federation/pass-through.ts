import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createProxyMiddleware,
  responseInterceptor,
  type Options,
  type RequestHandler,
} from 'http-proxy-middleware';
import { toErrorBody } from '@svc/errors';
import { sendJson } from '@svc/http-kit';
import { contactError } from './remote-gateway';
import { rawFromCluster, rawToCluster } from './manifests';

/** What the pass-through needs to know of one forwarded request. */
export interface Forwarding {
  target: string;
  cluster: string;
  token: string | null;
  /** The body as received (the gateway has read it already). */
  body: Buffer;
  home: string;
  /** Collections' manifests: `+R<cluster>-` ⇄ `+A` both ways (storage.md §7). */
  manifests?: boolean;
}

const forwardings = new WeakMap<IncomingMessage, Forwarding>();

/** The query string with `api_token` removed and `forwarded_for=<home>` added (§2). */
function forwardedPath(url: string, f: Forwarding): string {
  if (f.manifests) url = rawToCluster(url, f.cluster);
  const home = f.home;
  const q = url.indexOf('?');
  const search = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  search.delete('api_token');
  search.set('forwarded_for', home);
  return `${q < 0 ? url : url.slice(0, q)}?${search.toString()}`;
}

/**
 * Whole-request pass-through to another deployment's gateway (federation.md §2): same method,
 * path and parameters, the token salted for that cluster in the Authorization header only,
 * `forwarded_for` added; the remote's status and body come back unchanged. No answer within
 * the timeout is 502 "error contacting cluster <id>: <detail>".
 */
export function passThrough(timeoutMs: number) {
  const options = (rewrite: boolean): Options<IncomingMessage, ServerResponse> => ({
    router: (req) => forwardings.get(req)!.target,
    changeOrigin: true,
    proxyTimeout: timeoutMs,
    pathRewrite: (path, req) => forwardedPath(path, forwardings.get(req)!),
    selfHandleResponse: rewrite,
    on: {
      proxyReq: (proxyReq, req) => {
        const f = forwardings.get(req)!;
        proxyReq.removeHeader('authorization');
        if (f.token) proxyReq.setHeader('authorization', `Bearer ${f.token}`);
        proxyReq.removeHeader('expect');
        proxyReq.removeHeader('transfer-encoding');
        const body = f.manifests
          ? Buffer.from(rawToCluster(f.body.toString('utf8'), f.cluster), 'utf8')
          : f.body;
        proxyReq.setHeader('content-length', body.length);
        if (body.length > 0) proxyReq.write(body);
      },
      ...(rewrite
        ? {
            proxyRes: responseInterceptor(async (buffer, proxyRes, req) => {
              const f = forwardings.get(req)!;
              return proxyRes.statusCode === 200 ? rawFromCluster(buffer, f.cluster) : buffer;
            }),
          }
        : {}),
      error: (err, req, res) => {
        const f = forwardings.get(req as IncomingMessage);
        const body = toErrorBody(contactError(f?.cluster ?? '?', err));
        if ('headersSent' in res && !res.headersSent) sendJson(res, 502, body);
        else res.end();
      },
    },
  });
  const plain: RequestHandler<IncomingMessage, ServerResponse> = createProxyMiddleware(
    options(false),
  );
  const rewriting: RequestHandler<IncomingMessage, ServerResponse> = createProxyMiddleware(
    options(true),
  );
  return (req: IncomingMessage, res: ServerResponse, f: Forwarding): Promise<void> =>
    new Promise((resolve) => {
      forwardings.set(req, f);
      res.once('close', () => resolve());
      void (f.manifests ? rewriting : plain)(req, res, () => resolve());
    });
}
