import express, { type Express } from 'express';
import { EndpointNotFoundError } from '@svc/errors';
import { discovery } from './discovery';
import type { GatewayDeps } from './gateway-deps';
import { cors } from './http/cors';
import { errorMiddleware } from './http/error-middleware';
import { requestId } from './http/request-id';
import { mountLogin } from './login';
import { mountBlocks } from './blocks';
import { mountFiles } from './files';
import { apiCall } from './routing/api-call';
import { proxyToCore } from './routing/proxy';

/** The gateway's middleware, in order. */
export function buildGatewayApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(cors);
  app.all('/discovery/v1/apis/:api/:version/rest', discovery(deps));
  mountLogin(app, deps);
  mountBlocks(app, deps);
  mountFiles(app, deps);
  app.use(apiCall(deps));
  app.use(proxyToCore(deps));
  app.use(() => {
    throw new EndpointNotFoundError();
  });
  app.use(errorMiddleware(deps.log));
  return app;
}
