import type { GatewayHandler } from '../login/authenticate-handler';
import { accessibleKeepServices, getKeepService, listKeepServices } from './keep-services';
import { getPublicConfig } from './public-config';

/** API operations answered by the gateway from its configuration and the request. */
export const SERVICE_HANDLERS: Readonly<Record<string, GatewayHandler>> = {
  'svc.keep_services.accessible': accessibleKeepServices,
  'svc.keep_services.list': listKeepServices,
  'svc.keep_services.get': getKeepService,
  'svc.configs.get': getPublicConfig,
};
