import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ApiError, internalError, toErrorBody } from '@svc/errors';
import { sendJson } from '@svc/http-kit';

/** The gateway's only error→HTTP mapping: the contract's `{errors, error_token}`. */
export function answerError(
  res: ServerResponse,
  err: unknown,
  log: Logger,
  what: { method: string; url: string; requestId: string },
): void {
  const apiError = err instanceof ApiError ? err : internalError();
  const body = toErrorBody(apiError);
  if (apiError.status >= 500) {
    log.error({ err, ...what, errorToken: body.error_token }, 'request failed');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, apiError.status, body, what.method === 'HEAD');
}
