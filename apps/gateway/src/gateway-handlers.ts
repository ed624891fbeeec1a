import { authenticateHandler, type GatewayHandler } from './login';
import { openApiHandler } from './openapi';
import { getPublicConfig } from './public-config';

/** API operations the gateway answers itself (servedBy: 'gateway' in the endpoint table). */
export const GATEWAY_HANDLERS: Readonly<Record<string, GatewayHandler>> = {
  'svc.users.authenticate': authenticateHandler,
  'svc.openapi.get': openApiHandler(),
  'svc.configs.get': getPublicConfig,
};
