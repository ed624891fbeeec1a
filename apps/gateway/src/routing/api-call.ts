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
import { EndpointNotFoundError, MethodNotAllowedError, NotFoundError } from '@svc/errors';
import { readBody } from '@svc/http-kit';
import { encodeIdentity, type Identity } from '@svc/ids';
import { authenticate, rootIdentity } from '../auth/authenticate';
import { presentedToken } from '../auth/token';
import type { CoreTarget, GatewayDeps } from '../gateway-deps';
import { resolveCluster } from './resolve-cluster';

/** What the proxy forwards: where to, as whom, and the body it already read. */
export interface Forward {
  target: CoreTarget;
  identityHeader: string;
  body: Buffer;
}

const forwards = new WeakMap<Request, Forward>();
export const forwardOf = (req: Request): Forward | undefined => forwards.get(req);

function endpointOf(match: RouteMatch): Extract<RouteMatch, { kind: 'endpoint' }> {
  if (match.kind === 'not-found') throw new EndpointNotFoundError();
  if (match.kind === 'method-not-allowed') throw new MethodNotAllowedError();
  return match;
}

/** The deployment's root acts as root on each of its clusters. */
const identityFor = (identity: Identity, target: CoreTarget): Identity =>
  identity.tokenUuid?.endsWith('-gj3su-000000000000000') && identity.scopes.includes('all')
    ? rootIdentity(target.clusterId, identity.echoToken ?? '')
    : identity;

/**
 * The gateway's checks for a `/svc/v1` call, in the contract's order (route, body size, token,
 * scope), then the choice of cluster. Parameter validation is the core's.
 */
export function apiCall(deps: GatewayDeps): RequestHandler {
  return async (req, _res, next) => {
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
    const { endpoint, path } = endpointOf(method === req.method ? byPath : matchRoute(method, req.path));
    const params = mergeParams({ query, body: parsed.fields, bodyKind: parsed.kind, path });
    const identity = authenticate(deps.home, presentedToken(req, params));
    const clusterId = resolveCluster(endpoint, path, params, deps.home.ClusterID);
    const target = deps.cores.get(clusterId);
    if (!target) throw new NotFoundError(msg.noProxyForCluster(clusterId));
    forwards.set(req, { target, identityHeader: encodeIdentity(identityFor(identity, target)), body });
    next();
  };
}
