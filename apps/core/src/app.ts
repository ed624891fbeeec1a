import express, { type Express } from 'express';
import type { CoreDeps } from './core-deps';
import { dispatch } from './http/dispatch';
import { errorMiddleware } from './http/error-middleware';
import { buildHandlers } from './resources';

/** The whole core, in order: one dispatching route from the endpoint table, one error handler. */
export function buildCoreApp(deps: CoreDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(dispatch(deps, buildHandlers()));
  app.use(errorMiddleware(deps.log));
  return app;
}
