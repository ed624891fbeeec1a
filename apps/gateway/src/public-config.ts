import { publicConfig } from '@svc/config';
import type { GatewayHandler } from './login/authenticate-handler';
import { requestOrigin } from './http/origin';

/**
 * `GET /svc/v1/config` (discovery.md §5) of a cluster of this deployment, answered by the
 * gateway: its `Services` are derived from the URL the request came in on, which only the
 * gateway sees. A cluster of another deployment answers its own.
 */
export const getPublicConfig: GatewayHandler = async (deps, _params, { req, cluster }) => {
  const config = deps.config.Clusters[cluster] ?? deps.home;
  return { status: 200, body: publicConfig(config, `${requestOrigin(req)}/`) };
};
