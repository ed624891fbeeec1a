import type { Request, RequestHandler } from 'express';
import {
  effectiveMethod,
  lastQueryValues,
  matchRoute,
  mergeParams,
  methodParamOf,
  msg,
  parseBody,
  type RouteMatch,
} from '@svc/contract';
import {
  EndpointNotFoundError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  UnprocessableError,
} from '@svc/errors';
import { readBody, sendJson } from '@svc/http-kit';
import { encodeIdentity, type Identity } from '@svc/ids';
import { endpointId, rootIdentity, type Endpoint } from '@svc/contract';
import { GATEWAY_HANDLERS } from '../login';
import { authenticate } from '../auth/authenticate';
import { scopesPermit } from '../auth/scopes';
import { presentedToken } from '../auth/token';
import type { CoreTarget } from '../core-client';
import type { GatewayDeps } from '../gateway-deps';
import { resolveCluster } from './resolve-cluster';

/** What the proxy forwards: where to, as whom, and the body it already read. */
export interface Forward {
  target: CoreTarget;
  identityHeader: string;
  body: Buffer;
  endpoint: Endpoint;
  path: Readonly<Record<string, string>>;
}

const forwards = new WeakMap<Request, Forward>();
export const forwardOf = (req: Request): Forward | undefined => forwards.get(req);

function endpointOf(match: RouteMatch): Extract<RouteMatch, { kind: 'endpoint' }> {
  if (match.kind === 'not-found') throw new EndpointNotFoundError();
  if (match.kind === 'method-not-allowed') throw new MethodNotAllowedError();
  return match;
}

/** The deployment's root acts as root on each of its clusters. */
const identityFor = (identity: Identity, target: CoreTarget, home: string): Identity =>
  identity.tokenUuid === rootIdentity(home).tokenUuid
    ? rootIdentity(target.clusterId, identity.echoToken)
    : identity;

/** `remote=<id>` counts only on the two `current` endpoints (auth.md §3). */
function remoteParam(endpoint: Endpoint, params: Readonly<Record<string, unknown>>): string | null {
  const honoured =
    endpoint.name === 'current' &&
    ['users', 'api_client_authorizations'].includes(endpoint.resource);
  const remote = params['remote'];
  return honoured && typeof remote === 'string' && remote !== '' ? remote : null;
}

/** The presented secret is echoed only by `current`, and not to a remote asking for it. */
function withoutEcho(identity: Identity, endpoint: Endpoint, remote: string | null): Identity {
  if (
    endpoint.name === 'current' &&
    endpoint.resource === 'api_client_authorizations' &&
    remote === null
  ) {
    return identity;
  }
  const { echoToken: _hidden, ...rest } = identity;
  return rest;
}

/**
 * The gateway's checks for a `/svc/v1` call, in the contract's order (route, body size, token,
 * scope), then the choice of cluster. Parameter validation is the core's.
 */
export function apiCall(deps: GatewayDeps): RequestHandler {
  return async (req, res, next) => {
    if (!req.path.startsWith('/svc/v1/')) return next();
    const byPath = matchRoute(req.method, req.path);
    if (byPath.kind === 'not-found') throw new EndpointNotFoundError();
    if (req.method !== 'POST') endpointOf(byPath);
    const body = await readBody(req, deps.home.API.MaxRequestSize);
    const parsed = await parseBody(req.headers['content-type'], body);
    const query = lastQueryValues(req.query as Record<string, unknown>);
    const override = req.headers['x-http-method-override'];
    const method = effectiveMethod(
      req.method,
      methodParamOf(query, parsed.fields),
      Array.isArray(override) ? override[0] : override,
    );
    const { endpoint, path } = endpointOf(
      method === req.method ? byPath : matchRoute(method, req.path),
    );
    const params = mergeParams({ query, body: parsed.fields, bodyKind: parsed.kind, path });
    if (endpoint.servedBy === 'gateway') {
      if (parsed.error) throw new UnprocessableError(parsed.error);
      const handler = GATEWAY_HANDLERS[endpointId(endpoint)];
      if (!handler) throw new EndpointNotFoundError();
      const reply = await handler(deps, params, req);
      sendJson(res, reply.status, reply.body, req.method === 'HEAD');
      return;
    }
    const remote = remoteParam(endpoint, params);
    const token = presentedToken(req, params);
    const identity = await authenticate(deps.auth, token, remote);
    if (!scopesPermit(identity.scopes, method, req.path)) throw new ForbiddenError();
    const clusterId = resolveCluster(endpoint, path, params, deps.home.ClusterID);
    const target = deps.cores.get(clusterId);
    if (!target) throw new NotFoundError(msg.noProxyForCluster(clusterId));
    const vouched = {
      ...identityFor(withoutEcho(identity, endpoint, remote), target, deps.home.ClusterID),
      // Locator signatures are made for the token exactly as presented (storage.md §2).
      ...(token ? { token } : {}),
    };
    forwards.set(req, { target, identityHeader: encodeIdentity(vouched), body, endpoint, path });
    next();
  };
}
