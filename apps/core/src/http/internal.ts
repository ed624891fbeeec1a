import type { RequestHandler } from 'express';
import { EndpointNotFoundError, UnprocessableError } from '@svc/errors';
import { noteRequest, sendJson } from '@svc/http-kit';
import { requestIdFrom } from '@svc/ids';
import type { CoreDeps } from '../core-deps';
import { internalHandler } from '../internal/routes';
import type { CallVerifier } from './verify-call';

/** Calls only the gateway makes (token checks, logins), proven like every call. */
export function internalRoutes(deps: CoreDeps, verifier: CallVerifier): RequestHandler {
  return async (req, res) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    const raw = await verifier.verifiedBody(req, requestId);
    const handler = internalHandler(req.method, req.path);
    if (!handler) throw new EndpointNotFoundError();
    noteRequest(res, { route: req.path }); // one of the internal table's paths
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : {};
    } catch {
      throw new UnprocessableError('Could not parse request body as a JSON object');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new UnprocessableError('Could not parse request body as a JSON object');
    }
    const answer = await handler(
      { db: deps.db, cluster: deps.cluster },
      body as Record<string, unknown>,
    );
    sendJson(res, 200, answer);
  };
}
