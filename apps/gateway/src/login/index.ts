import { authenticateHandler, type GatewayHandler } from './authenticate-handler';

/** API operations the gateway answers itself (servedBy: 'gateway' in the endpoint table). */
export const GATEWAY_HANDLERS: Readonly<Record<string, GatewayHandler>> = {
  'svc.users.authenticate': authenticateHandler,
};

export type { GatewayHandler };
