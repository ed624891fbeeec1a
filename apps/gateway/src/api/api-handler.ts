import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { endpointId, parseRequest, typedOptions, type ParsedRequest } from '@svc/contract';
import { EndpointNotFoundError, ForbiddenError } from '@svc/errors';
import { routingFacts } from '../federation/federation';
import { requestIdFrom, type Identity } from '@svc/ids';
import { evictAfterWrite } from '../auth/evict';
import { scopesPermit } from '../auth/scopes';
import type { CoreAnswer } from '../core-client';
import type { GatewayDeps } from '../gateway-deps';
import { answerError, EMPTY_LIST_HEADER, noteRequest, sendJson, sendJsonText } from '@svc/http-kit';
import { setCorsHeaders } from '../http/cors';
import { requestOrigin } from '../http/origin';
import { GATEWAY_HANDLERS } from '../gateway-handlers';
import { readApiRequest, splitUrl } from './read-request';

/** `/sys/trash_sweep` is the same operation as `/svc/v1/sys/trash_sweep` (docs/api/more-resources.md §12). */
const ROOT_ALIASES: Readonly<Record<string, string>> = {
  '/sys/trash_sweep': '/svc/v1/sys/trash_sweep',
};

export const isApiPath = (pathname: string): boolean =>
  pathname === '/svc/v1' || pathname.startsWith('/svc/v1/') || pathname in ROOT_ALIASES;

/** The request's address and the gateway's origin as the client reached it. */
function requestFacts(deps: GatewayDeps, req: IncomingMessage) {
  const external = deps.home.ExternalURL;
  const address = req.socket.remoteAddress;
  return {
    ...(address ? { clientAddress: address.replace(/^::ffff:/, '') } : {}),
    origin: external !== '' ? external : requestOrigin(req),
  };
}

/** 403 unless the token's scopes allow the call; bypass_federation is for admins only. */
function checkAllowed(p: ParsedRequest, identity: Identity | null, pathname: string): void {
  if (identity === null || p.endpoint.public) return;
  if (!scopesPermit(identity.scopes, p.method, pathname)) throw new ForbiddenError();
  if (routingFacts(p).bypassFederation && !identity.isAdmin) {
    throw new ForbiddenError(
      'The bypass_federation parameter is only permitted when current user is admin',
    );
  }
}

/** An operation the gateway answers itself: checked in the same order as any other. */
async function servedHere(
  deps: GatewayDeps,
  parsed: ParsedRequest,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  cluster: string,
): Promise<void> {
  const handler = GATEWAY_HANDLERS[endpointId(parsed.endpoint)];
  if (!handler) throw new EndpointNotFoundError();
  const home = { kind: 'core' as const, cluster };
  const identity = parsed.endpoint.public
    ? null
    : (await deps.federation.admit(parsed, home, requestId)).identity;
  noteRequest(res, { cluster: home.cluster, ...(identity ? { user: identity.userUuid } : {}) });
  checkAllowed(parsed, identity, splitUrl(req.url ?? '/').pathname);
  typedOptions(parsed);
  const reply = await handler(deps, parsed.params, { req, identity, cluster });
  sendJson(res, reply.status, reply.body, req.method === 'HEAD');
}

/** A cluster's 5xx answer: the gateway's request line carries the error token the client sees. */
function noteErrorToken(res: ServerResponse, body: Buffer): void {
  try {
    const token = (JSON.parse(body.toString('utf8')) as { error_token?: unknown }).error_token;
    if (typeof token === 'string') noteRequest(res, { errorToken: token });
  } catch {
    // not JSON: nothing to note
  }
}

/** The core's answer to the client: small ones (read whole) in one write, larger ones streamed. */
async function passThrough(res: ServerResponse, answer: CoreAnswer, head: boolean) {
  res.statusCode = answer.statusCode;
  if (answer.headers[EMPTY_LIST_HEADER] === '1') noteRequest(res, { quiet: true });
  const type = answer.headers['content-type'];
  if (type !== undefined) res.setHeader('Content-Type', type);
  const retryAfter = answer.headers['retry-after'];
  if (retryAfter !== undefined) res.setHeader('Retry-After', retryAfter);
  const length = Number(answer.headers['content-length'] ?? NaN);
  const whole = answer.body.whole;
  if (head) {
    if (length >= 0) res.setHeader('Content-Length', length);
    await answer.body.dump();
    res.end();
  } else if (whole !== null) {
    if (answer.statusCode >= 500) noteErrorToken(res, whole);
    res.end(whole);
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
      // Routed as its /svc/v1 form; the scope check reads the path used.
      const read = await readApiRequest(req, ROOT_ALIASES[pathname] ?? pathname, search, maxBytes);
      const parsed = parseRequest(read.parts);
      noteRequest(res, { route: `/svc/v1/${parsed.endpoint.path}` });
      const route = deps.federation.route(parsed);
      // the gateway answers for its own clusters; another deployment answers for its own
      if (parsed.endpoint.servedBy === 'gateway' && route.kind === 'core') {
        await servedHere(deps, parsed, req, res, requestId, route.cluster);
        return;
      }
      const admission = await deps.federation.admit(parsed, route, requestId);
      noteRequest(res, {
        ...(admission.identity ? { user: admission.identity.userUuid } : {}),
        ...('cluster' in route ? { cluster: route.cluster } : {}),
      });
      checkAllowed(parsed, admission.identity, pathname);
      const options = typedOptions(parsed);
      const outcome = await deps.federation.execute(
        route,
        {
          endpoint: parsed.endpoint,
          endpointId: endpointId(parsed.endpoint),
          options,
          remote: parsed.remote,
          request: requestFacts(deps, req),
        },
        admission,
      );
      if (outcome.kind === 'forward') {
        await deps.forward(req, res, { ...outcome.forwarding, body: read.raw });
        return;
      }
      const status = outcome.kind === 'core' ? outcome.answer.statusCode : outcome.status;
      if (status < 300) {
        const uuid = options['uuid'];
        evictAfterWrite(
          deps.auth.cache,
          parsed.endpoint,
          typeof uuid === 'string' ? uuid : undefined,
        );
      }
      if (outcome.kind === 'core') await passThrough(res, outcome.answer, method === 'HEAD');
      else if (outcome.kind === 'text')
        sendJsonText(res, outcome.status, outcome.text, method === 'HEAD');
      else sendJson(res, outcome.status, outcome.body, method === 'HEAD');
    } catch (err) {
      answerError(res, err, deps.log, { method, url: req.url ?? '', requestId });
    }
  };
}
