import type { ServerResponse } from 'node:http';
import { ApiError, internalError, toErrorBody } from '@svc/errors';
import { sendJson } from './json';
import { noteRequest } from './request-facts';

/** Where a server's errors are logged: pino's `error(object, message)` is enough. */
export interface ErrorLog {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * The contract's error answer `{errors, error_token}` for anything thrown: an ApiError keeps its
 * status and messages; anything else is 500 "Internal server error". 5xx answers are logged with
 * the error token the client saw. The one mapping of both apps (each calls it from one place).
 */
export function answerError(
  res: ServerResponse,
  err: unknown,
  log: ErrorLog,
  what: { method: string; url: string; requestId: string },
): void {
  const apiError = err instanceof ApiError ? err : internalError();
  const body = toErrorBody(apiError);
  if (apiError.status >= 500) {
    noteRequest(res, { errorToken: body.error_token });
    log.error({ err, ...what, errorToken: body.error_token }, 'request failed');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, apiError.status, body, what.method === 'HEAD');
}
