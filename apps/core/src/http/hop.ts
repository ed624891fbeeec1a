import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { endpointById, msg, type Endpoint } from '@svc/contract';
import { EndpointNotFoundError, NotLoggedInError, UnprocessableError } from '@svc/errors';
import {
  EMPTY_LIST_HEADER,
  ITEM_LINES_TYPE,
  noteRequest,
  sendJson,
  toItemLines,
} from '@svc/http-kit';
import { identityFrom, requestIdFrom } from '@svc/ids';
import type { Call, Handler, Reply } from '../call';
import type { CoreDeps } from '../core-deps';
import { isStatementTimeout } from '../db/pg-error';
import { answerError } from './answer-error';
import { callerOf } from './caller';
import { TokenRequestLimit } from './token-limit';
import type { CallVerifier } from './verify-call';

export const CALL_PREFIX = '/_call/';

interface HopBody {
  identity: unknown;
  options: Record<string, unknown>;
  /** A list page answered as item lines (the gateway's fan-out, see @svc/http-kit). */
  lines: boolean;
}

function hopBodyOf(raw: Buffer): HopBody {
  try {
    const value = JSON.parse(raw.toString('utf8')) as Partial<HopBody>;
    if (
      typeof value.options === 'object' &&
      value.options !== null &&
      !Array.isArray(value.options)
    )
      return { identity: value.identity, options: value.options, lines: value.lines === true };
  } catch {
    // falls through: the gateway never sends this, so it is not a call
  }
  throw new NotLoggedInError();
}

/** A list answer with no items (its request lines are quiet: pollers finding nothing). */
const isEmptyList = (body: unknown): boolean => {
  const items = (body as { items?: unknown } | null)?.items;
  return Array.isArray(items) && items.length === 0;
};

/**
 * `POST /_call/<endpoint id>`: one typed API call from the gateway (docs/adr/0006). The
 * gateway already routed, authenticated and converted the parameters; the core verifies the
 * proof, runs the operation's handler and answers JSON. This path does not go through
 * express: it is every API request's path through the core.
 */
export function hopHandler(
  deps: CoreDeps,
  handlers: ReadonlyMap<string, Handler>,
  verifier: CallVerifier,
  log: Logger,
) {
  const limit = new TokenRequestLimit(deps.cluster.API.MaxConcurrentRequestsPerToken);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    try {
      const body = hopBodyOf(await verifier.verifiedBody(req, requestId));
      const identity = identityFrom(body.identity);
      if (!identity) throw new NotLoggedInError();
      noteRequest(res, { user: identity.userUuid, cluster: deps.cluster.ClusterID });
      const id = (req.url ?? '').slice(CALL_PREFIX.length);
      const endpoint = endpointById(id);
      const handler = handlers.get(id);
      if (!endpoint || !handler) throw new EndpointNotFoundError();
      noteRequest(res, { route: `${CALL_PREFIX}${id}` });
      // The root token has a built-in uuid; every token is limited and shares the pool alike.
      const token = identity.tokenUuid ?? identity.userUuid;
      const call: Call = {
        cluster: deps.cluster,
        db: deps.db.forCaller(token),
        caller: callerOf(identity),
        endpoint,
        options: body.options,
        requestId,
        locals: {},
      };
      const reply = await limit.run(token, () =>
        handler(call).catch((err: unknown) => {
          throw listTooSlow(err, endpoint, deps.cluster.API.MaxListDuration);
        }),
      );
      answer(res, reply, body.lines);
    } catch (err) {
      answerError(res, err, log, { method: 'POST', url: req.url ?? '', requestId }, deps.outage);
    }
  };
}

/**
 * A list (an operation taking filters) whose statement ran past API.MaxListDuration is the
 * client's to narrow: 422, not a fault (docs/api/requests-and-errors.md §7).
 */
function listTooSlow(err: unknown, endpoint: Endpoint, seconds: number): unknown {
  return isStatementTimeout(err) && 'filters' in endpoint.params
    ? new UnprocessableError(msg.listTooSlow(seconds))
    : err;
}

/** A handler's reply as JSON, or a list page as item lines when the gateway asked for them. */
function answer(res: ServerResponse, reply: Reply, lines: boolean): void {
  if (isEmptyList(reply.body)) {
    noteRequest(res, { quiet: true });
    res.setHeader(EMPTY_LIST_HEADER, '1');
  }
  const items = (reply.body as { items?: unknown } | null)?.items;
  if (lines && (reply.status ?? 200) === 200 && Array.isArray(items)) {
    const text = toItemLines(items);
    res.statusCode = 200;
    res.setHeader('Content-Type', ITEM_LINES_TYPE);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
    return;
  }
  sendJson(res, reply.status ?? 200, reply.body);
}
