import type { ServerResponse } from 'node:http';
import {
  ApiError,
  internalError,
  ServiceUnavailableError,
  TooManyRequestsError,
  toErrorBody,
} from '@svc/errors';
import { sendJson } from './json';
import { redactText, redactUrl } from './redact';
import { noteRequest } from './request-facts';

/** Where a server's errors are logged: pino's `error(object, message)` is enough. */
export interface ErrorLog {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * What is logged of a failure. An ApiError (502 from a remote or a core, 503 while a database
 * is out) is an expected answer: one line with its status and message, no stack (an outage
 * would otherwise log one trace per request). Anything else is a fault: its stack is logged,
 * its message with any token written out.
 */
function logged(err: unknown): Record<string, unknown> {
  if (err instanceof ApiError) return { status: err.status, errors: err.messages.map(redactText) };
  if (err instanceof Error) {
    const fault = new Error(redactText(err.message));
    fault.name = err.name;
    fault.stack = err.stack ? redactText(err.stack) : undefined;
    const code = (err as { code?: unknown }).code;
    return { err: fault, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { err: redactText(String(err)) };
}

/** A refusal during an outage: counted and logged once per outage by whoever detected it. */
const isCountedOutage = (err: ApiError): boolean =>
  err instanceof ServiceUnavailableError && !err.loggedPerRequest;

/**
 * The contract's error answer `{errors, error_token}` for anything thrown: an ApiError keeps its
 * status and messages; anything else is 500 "Internal server error". 5xx answers are logged with
 * the error token the client saw, and never with a secret of the request. The one mapping of
 * both apps (each calls it from one place).
 */
export function answerError(
  res: ServerResponse,
  err: unknown,
  log: ErrorLog,
  what: { method: string; url: string; requestId: string },
): void {
  const apiError = err instanceof ApiError ? err : internalError();
  const body = toErrorBody(apiError);
  if (apiError.status >= 500 && !isCountedOutage(apiError)) {
    noteRequest(res, { errorToken: body.error_token });
    log.error(
      { ...logged(err), ...what, url: redactUrl(what.url), errorToken: body.error_token },
      'request failed',
    );
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  if (apiError instanceof TooManyRequestsError || apiError instanceof ServiceUnavailableError) {
    res.setHeader('Retry-After', String(apiError.retryAfterSeconds));
  }
  sendJson(res, apiError.status, body, what.method === 'HEAD');
}
