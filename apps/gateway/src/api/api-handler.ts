import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import {
  anonymousIdentity,
  endpointId,
  parseRequest,
  typedOptions,
  type ParsedRequest,
} from '@svc/contract';
import { EndpointNotFoundError, ForbiddenError, UnprocessableError } from '@svc/errors';
import { sendJson } from '@svc/http-kit';
import { requestIdFrom, type Identity } from '@svc/ids';
import { authenticate } from '../auth/authenticate';
import { evictAfterWrite } from '../auth/evict';
import { scopesPermit } from '../auth/scopes';
import type { CoreAnswer } from '../core-client';
import type { GatewayDeps } from '../gateway-deps';
import { answerError } from '../http/answer-error';
import { setCorsHeaders } from '../http/cors';
import { GATEWAY_HANDLERS } from '../login';
import { readApiRequest, splitUrl } from './read-request';

export const isApiPath = (pathname: string): boolean =>
  pathname === '/svc/v1' || pathname.startsWith('/svc/v1/');

/** Who calls (401) and whether the token's scopes allow it (403); public operations skip both. */
async function callerOf(deps: GatewayDeps, p: ParsedRequest, pathname: string): Promise<Identity> {
  if (p.endpoint.public) return anonymousIdentity(deps.home.ClusterID);
  const identity = await authenticate(deps.auth, p.token, p.remote);
  if (!scopesPermit(identity.scopes, p.method, pathname)) throw new ForbiddenError();
  return identity;
}

/** Answers up to this size are read whole and written in one go; larger ones stream. */
const WHOLE_ANSWER_BYTES = 1 << 20;

async function passThrough(res: ServerResponse, answer: CoreAnswer, head: boolean) {
  res.statusCode = answer.statusCode;
  const type = answer.headers['content-type'];
  if (type !== undefined) res.setHeader('Content-Type', type);
  const length = Number(answer.headers['content-length'] ?? NaN);
  if (head) {
    if (length >= 0) res.setHeader('Content-Length', length);
    await answer.body.dump();
    res.end();
  } else if (length <= WHOLE_ANSWER_BYTES) {
    // One write for headers and body: cheaper than a stream pipeline for the usual JSON answer.
    res.end(Buffer.from(await answer.body.arrayBuffer()));
  } else {
    if (length >= 0) res.setHeader('Content-Length', length);
    await pipeline(answer.body, res);
  }
}

/**
 * Every `/svc/v1` request: parsed once into a typed call, checked in the contract's order
 * (route, body size, token, scope, parameters), handed to the federation layer, and the
 * cluster's answer streamed back. Runs before express: the API path needs none of it.
 */
export function apiHandler(deps: GatewayDeps) {
  const maxBytes = deps.home.API.MaxRequestSize;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    setCorsHeaders(res);
    const method = req.method ?? 'GET';
    try {
      if (method === 'OPTIONS') {
        res.statusCode = 200;
        res.end();
        return;
      }
      const { pathname, search } = splitUrl(req.url ?? '/');
      const parsed = parseRequest(await readApiRequest(req, pathname, search, maxBytes));
      if (parsed.endpoint.servedBy === 'gateway') {
        if (parsed.bodyError) throw new UnprocessableError(parsed.bodyError);
        const handler = GATEWAY_HANDLERS[endpointId(parsed.endpoint)];
        if (!handler) throw new EndpointNotFoundError();
        const reply = await handler(deps, parsed.params);
        sendJson(res, reply.status, reply.body, method === 'HEAD');
        return;
      }
      const identity = await callerOf(deps, parsed, pathname);
      const options = typedOptions(parsed);
      const answer = await deps.federation.execute({
        endpoint: parsed.endpoint,
        endpointId: endpointId(parsed.endpoint),
        options,
        identity,
        remote: parsed.remote,
        requestId,
      });
      if (answer.statusCode < 300) {
        const uuid = options['uuid'];
        evictAfterWrite(
          deps.auth.cache,
          parsed.endpoint,
          typeof uuid === 'string' ? uuid : undefined,
        );
      }
      await passThrough(res, answer, method === 'HEAD');
    } catch (err) {
      answerError(res, err, deps.log, { method, url: req.url ?? '', requestId });
    }
  };
}
