import type { ClientRequest } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { BadGatewayError, toErrorBody } from '@svc/errors';
import { sendJson } from '@svc/http-kit';
import { IDENTITY_HEADER, PROOF_HEADER, signProof } from '@svc/ids';
import type { GatewayDeps } from '../gateway-deps';
import { evictAfterWrite } from '../auth/evict';
import { forwardOf } from './api-call';

function signRequest(proxyReq: ClientRequest, req: Request): void {
  const forward = forwardOf(req);
  if (!forward) return;
  const requestId = String(req.headers['x-request-id']);
  proxyReq.removeHeader('authorization');
  proxyReq.setHeader(IDENTITY_HEADER, forward.identityHeader);
  proxyReq.setHeader(
    PROOF_HEADER,
    signProof(forward.target.proofKey, {
      method: req.method,
      url: req.originalUrl,
      identity: forward.identityHeader,
      requestId,
    }),
  );
  if (forward.body.length > 0) {
    // The gateway read the body to check it; the core gets the same bytes.
    proxyReq.removeHeader('transfer-encoding');
    proxyReq.setHeader('content-length', forward.body.length);
    proxyReq.write(forward.body);
  }
}

/** Forwards a checked call to its cluster's core, signed; the core's answer passes through. */
export function proxyToCore(deps: GatewayDeps): RequestHandler {
  return createProxyMiddleware<Request, Response>({
    router: (req) => forwardOf(req)?.target.url,
    target: 'http://127.0.0.1:9',
    agent: deps.agent,
    proxyTimeout: 60_000,
    pathFilter: (_path, req) => forwardOf(req) !== undefined,
    on: {
      proxyReq: (proxyReq, req) => signRequest(proxyReq, req),
      proxyRes: (proxyRes, req) => {
        const forward = forwardOf(req);
        if (forward && (proxyRes.statusCode ?? 500) < 300) {
          evictAfterWrite(deps.auth.cache, forward.endpoint, forward.path['uuid']);
        }
      },
      error: (err, req, res) => {
        const clusterId = forwardOf(req as Request)?.target.clusterId ?? '?';
        const error = new BadGatewayError(`error contacting cluster ${clusterId}: ${err.message}`);
        if ('headersSent' in res && !res.headersSent) sendJson(res, 502, toErrorBody(error));
        else res.end();
      },
    },
  });
}
