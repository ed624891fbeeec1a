import type { Express } from 'express';
import type { GatewayDeps } from '../gateway-deps';
import { authenticateHandler, type GatewayHandler } from './authenticate-handler';
import { loginPage } from './login-page';
import { logout } from './logout';
import { SERVICE_HANDLERS } from '../services';

/** API operations the gateway answers itself (servedBy: 'gateway' in the endpoint table). */
export const GATEWAY_HANDLERS: Readonly<Record<string, GatewayHandler>> = {
  'svc.users.authenticate': authenticateHandler,
  ...SERVICE_HANDLERS,
};

/** `/login` and `/logout` (auth.md §9): outside /svc/v1, no token needed, no CORS headers. */
export function mountLogin(app: Express, deps: GatewayDeps): void {
  app.get('/login', loginPage(deps));
  app.get('/logout', logout(deps));
}

export { accessTokenFallback } from './access-token';
export type { GatewayHandler };
