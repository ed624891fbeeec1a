import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { builtInUuids, keepServices } from '@svc/contract';
import { NotFoundError } from '@svc/errors';
import type { GatewayDeps } from '../gateway-deps';
import { requestOrigin } from '../http/origin';
import type { GatewayHandler } from '../login/authenticate-handler';

const STARTED = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

/** The gateway as the client reached it: ExternalURL if set, else the request's origin. */
function serviceUrl(deps: GatewayDeps, req: IncomingMessage): URL {
  const external = deps.home.ExternalURL;
  return new URL(external !== '' ? external : `${requestOrigin(req)}/`);
}

/** The one block service a client should use (storage.md §8): this gateway. */
export function keepServiceRecord(
  deps: GatewayDeps,
  req: IncomingMessage,
): Record<string, unknown> {
  const url = serviceUrl(deps, req);
  const ssl = url.protocol === 'https:';
  const port = url.port !== '' ? Number(url.port) : ssl ? 443 : 80;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const origin = `${url.protocol}//${url.hostname}:${port}/`;
  const id = createHash('md5').update(origin).digest('hex').slice(0, 15);
  const record = {
    kind: keepServices.kind,
    uuid: `${deps.home.ClusterID}-${keepServices.infix}-${id}`,
    owner_uuid: builtInUuids(deps.home.ClusterID).systemUser,
    created_at: STARTED,
    modified_at: STARTED,
    modified_by_user_uuid: null,
    service_host: host,
    service_port: port,
    service_ssl_flag: ssl,
    service_type: 'proxy',
    read_only: false,
  };
  const etag = createHash('md5').update(JSON.stringify(record)).digest('hex');
  return { ...record, etag };
}

const listOf = (items: unknown[]) => ({
  kind: `${keepServices.kind}List`,
  offset: 0,
  limit: items.length,
  items_available: items.length,
  items,
});

/** `GET /svc/v1/keep_services/accessible`: no token needed. */
export const accessibleKeepServices: GatewayHandler = async (deps, _params, { req }) => ({
  status: 200,
  body: listOf([keepServiceRecord(deps, req)]),
});

/** `GET /svc/v1/keep_services`: admins see the services, others an empty list. */
export const listKeepServices: GatewayHandler = async (deps, _params, { req, identity }) => ({
  status: 200,
  body: listOf(identity?.isAdmin ? [keepServiceRecord(deps, req)] : []),
});

/** `GET /svc/v1/keep_services/<uuid>`. */
export const getKeepService: GatewayHandler = async (deps, params, { req }) => {
  const record = keepServiceRecord(deps, req);
  if (params['uuid'] !== record['uuid']) throw new NotFoundError();
  return { status: 200, body: record };
};
