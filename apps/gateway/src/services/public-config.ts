import { publicConfig } from '@svc/config';
import type { GatewayHandler } from '../login/authenticate-handler';

/** `GET /svc/v1/config` (discovery.md §5): no token needed, a sent one is ignored. */
export const getPublicConfig: GatewayHandler = async (deps) => ({
  status: 200,
  body: publicConfig(deps.home),
});
