import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express from 'express';
import { EndpointNotFoundError } from '@svc/errors';
import type { CoreDeps } from './core-deps';
import { errorMiddleware } from './http/error-middleware';
import { CALL_PREFIX, hopHandler } from './http/hop';
import { internalRoutes } from './http/internal';
import { CallVerifier } from './http/verify-call';
import { buildHandlers } from './resources';
import { UsedProofs } from './auth/used-proofs';

/**
 * The core's request listener: API calls from the gateway (`POST /_call/<id>`) go straight
 * to their handler, everything else (the gateway's internal operations) through express.
 */
export function buildCoreListener(deps: CoreDeps): RequestListener {
  const maxBody = 2 * deps.cluster.API.MaxRequestSize + 65_536; // a call's options hold its body
  const verifier = new CallVerifier(deps.proofKey, maxBody, new UsedProofs(deps.db, deps.outage));
  const hop = hopHandler(deps, buildHandlers(), verifier, deps.log);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(internalRoutes(deps, verifier));
  app.use(() => {
    throw new EndpointNotFoundError();
  });
  app.use(errorMiddleware(deps.log, deps.outage));
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url?.startsWith(CALL_PREFIX)) void hop(req, res);
    else app(req, res);
  };
}
