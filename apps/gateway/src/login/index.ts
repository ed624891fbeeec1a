import type { Express } from 'express';
import type { GatewayDeps } from '../gateway-deps';
import { routed } from '../http/route';
import { authenticateHandler, type GatewayHandler } from './authenticate-handler';
import { loginPage } from './login-page';
import { logout } from './logout';

/** `/login` and `/logout` (auth.md §9): outside /svc/v1, no token needed, no CORS headers. */
export function mountLogin(app: Express, deps: GatewayDeps): void {
  app.get('/login', routed('/login', loginPage(deps)));
  app.get('/logout', routed('/logout', logout(deps)));
}

export { accessTokenFallback } from './access-token';
export { authenticateHandler, type GatewayHandler };
