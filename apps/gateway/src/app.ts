import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express from 'express';
import { EndpointNotFoundError } from '@svc/errors';
import { apiHandler, isApiPath } from './api/api-handler';
import { splitUrl } from './api/read-request';
import { discovery } from './discovery';
import type { GatewayDeps } from './gateway-deps';
import { allowedHosts, refuseMisdirected } from './http/allowed-hosts';
import { cors } from './http/cors';
import { errorMiddleware } from './http/error-middleware';
import { requestId } from './http/request-id';
import { routed } from './http/route';
import { mountLogin } from './login';
import { mountBlocks } from './blocks';
import { mountFiles } from './files';
import { mountConsole } from './console';

/**
 * Everything but the API path: discovery, login pages, blocks, files, then the web console for
 * every other GET; other methods get 404.
 */
function buildExpressApp(deps: GatewayDeps) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(cors);
  app.all(
    '/discovery/v1/apis/:api/:version/rest',
    routed('/discovery/v1/apis/{api}/{version}/rest', discovery(deps)),
  );
  mountLogin(app, deps);
  mountBlocks(app, deps);
  mountFiles(app, deps);
  mountConsole(app);
  app.use(() => {
    throw new EndpointNotFoundError();
  });
  app.use(errorMiddleware(deps.log));
  return app;
}

/**
 * The gateway's request listener: `/svc/v1` goes straight to the API handler (parse once,
 * authenticate, route, stream the answer: docs/adr/0006), everything else through express.
 */
export function buildGatewayListener(deps: GatewayDeps): RequestListener {
  const api = apiHandler(deps);
  const app = buildExpressApp(deps);
  // URLs come from each request's Host only when ExternalURL is "": then only allowed hosts.
  const allowed = deps.home.ExternalURL === '' ? allowedHosts(deps.config) : null;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (refuseMisdirected(allowed, req, res)) return;
    if (isApiPath(splitUrl(req.url ?? '/').pathname)) void api(req, res);
    else app(req, res);
  };
}
