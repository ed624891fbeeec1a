import type { Request, RequestHandler } from 'express';
import { routableRemotes } from '@svc/config';
import { buildDiscovery } from '@svc/contract';
import { EndpointNotFoundError, MethodNotAllowedError } from '@svc/errors';
import { sendJson } from '@svc/http-kit';
import { requestOrigin } from './http/origin';
import type { GatewayDeps } from './gateway-deps';

const API_NAME = /^[a-z][a-z0-9_]*$/;

const rootUrlOf = (deps: GatewayDeps, req: Request): string =>
  deps.home.ExternalURL !== '' ? deps.home.ExternalURL : `${requestOrigin(req)}/`;

/**
 * `GET /discovery/v1/apis/{api}/v1/rest` (discovery.md): no token needed; any API name; built
 * from the same tables that drive validation and routing; cached per root URL.
 */
export function discovery(deps: GatewayDeps): RequestHandler {
  const cache = new Map<string, Record<string, unknown>>();
  const home = deps.home;
  return (req, res) => {
    if (!['GET', 'HEAD', 'POST'].includes(req.method)) throw new MethodNotAllowedError();
    const { api, version } = req.params as { api: string; version: string };
    if (!API_NAME.test(api) || version !== 'v1') throw new EndpointNotFoundError();
    const rootUrl = rootUrlOf(deps, req);
    let doc = cache.get(rootUrl);
    if (doc === undefined) {
      const remoteHosts = Object.fromEntries(
        routableRemotes(home).map((id) => [id, home.RemoteClusters[id]!.Host]),
      );
      doc = buildDiscovery({
        rootUrl,
        clusterId: home.ClusterID,
        maxItemsPerResponse: home.API.MaxItemsPerResponse,
        maxRequestSize: home.API.MaxRequestSize,
        defaultReplication: home.Collections.DefaultReplication,
        blobSigningTtl: home.Collections.BlobSigningTTL,
        remoteHosts,
      });
      if (cache.size < 16) cache.set(rootUrl, doc);
    }
    res.setHeader('Cache-Control', 'public, max-age=3600');
    sendJson(res, 200, doc, req.method === 'HEAD');
  };
}
