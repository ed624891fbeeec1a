import type { Request, RequestHandler, Response } from 'express';
import {
  effectiveMethod,
  checkBooleanParams,
  endpointId,
  lastQueryValues,
  matchRoute,
  mergeParams,
  methodParamOf,
  parseBody,
  type RouteMatch,
} from '@svc/contract';
import {
  EndpointNotFoundError,
  MethodNotAllowedError,
  NotLoggedInError,
  UnprocessableError,
} from '@svc/errors';
import {
  decodeIdentity,
  IDENTITY_HEADER,
  PROOF_HEADER,
  requestIdFrom,
  verifyProof,
  type Identity,
} from '@svc/ids';
import type { Call, Handler } from '../call';
import type { CoreDeps } from '../core-deps';
import { internalHandler } from '../internal/routes';
import { callerOf } from './caller';
import { readBody, sendJson } from '@svc/http-kit';

const header = (req: Request, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Requests reach a core only through the gateway, which signs them. */
function verifiedIdentity(deps: CoreDeps, req: Request, requestId: string): Identity {
  const identityHeader = header(req, IDENTITY_HEADER) ?? '';
  const fields = { method: req.method, url: req.originalUrl, identity: identityHeader, requestId };
  if (!verifyProof(deps.proofKey, header(req, PROOF_HEADER), fields)) throw new NotLoggedInError();
  const identity = decodeIdentity(identityHeader);
  if (!identity) throw new NotLoggedInError();
  return identity;
}

function throwUnlessEndpoint(
  match: RouteMatch,
): asserts match is Extract<RouteMatch, { kind: 'endpoint' }> {
  if (match.kind === 'not-found') throw new EndpointNotFoundError();
  if (match.kind === 'method-not-allowed') throw new MethodNotAllowedError();
}

/** Calls only the gateway makes (token checks, logins), already proven to come from it. */
async function internalCall(deps: CoreDeps, req: Request, res: Response): Promise<void> {
  const handler = internalHandler(req.method, req.path);
  if (!handler) throw new EndpointNotFoundError();
  const body = await parseBody(
    req.headers['content-type'],
    await readBody(req, deps.cluster.API.MaxRequestSize),
  );
  if (body.error) throw new UnprocessableError(body.error);
  sendJson(res, 200, await handler({ db: deps.db, cluster: deps.cluster }, body.fields ?? {}));
}

/**
 * The core's one route: verify the gateway's proof, find the operation in the contract's
 * endpoint table, read and merge parameters, run the handler, send JSON.
 */
export function dispatch(deps: CoreDeps, handlers: ReadonlyMap<string, Handler>): RequestHandler {
  return async (req: Request, res: Response) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    const identity = verifiedIdentity(deps, req, requestId);
    if (req.path.startsWith('/_internal/')) return internalCall(deps, req, res);
    const pathname = req.path;
    const byPath = matchRoute(req.method, pathname);
    if (byPath.kind === 'not-found') throw new EndpointNotFoundError();
    if (req.method !== 'POST') throwUnlessEndpoint(byPath);

    const raw = await readBody(req, deps.cluster.API.MaxRequestSize);
    const body = await parseBody(req.headers['content-type'], raw);
    const query = lastQueryValues(req.query as Record<string, unknown>);
    const method = effectiveMethod(
      req.method,
      methodParamOf(query, body.fields),
      header(req, 'x-http-method-override'),
    );
    const match = method === req.method ? byPath : matchRoute(method, pathname);
    throwUnlessEndpoint(match);

    const caller = callerOf(identity);
    if (body.error) throw new UnprocessableError(body.error);
    const handler = handlers.get(endpointId(match.endpoint));
    if (!handler) throw new EndpointNotFoundError();
    const params = mergeParams({ query, body: body.fields, bodyKind: body.kind, path: match.path });
    checkBooleanParams(match.endpoint.params, params);
    const call: Call = {
      cluster: deps.cluster,
      db: deps.db,
      caller,
      endpoint: match.endpoint,
      params,
      jsonBody: body.kind === 'json' ? body.fields : null,
      requestId,
      locals: {},
    };
    const reply = await handler(call);
    sendJson(res, reply.status ?? 200, reply.body, req.method === 'HEAD');
  };
}
