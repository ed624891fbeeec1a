import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ApiError, internalError, toErrorBody } from '@svc/errors';
import { sendJson } from '@svc/http-kit';
import { translatePgError } from '../db/pg-error';

/**
 * The core's only error→HTTP mapping: the contract's `{errors, error_token}`. PostgreSQL
 * errors are translated first; anything else unexpected is a 500, logged with its token.
 */
export function answerError(
  res: ServerResponse,
  err: unknown,
  log: Logger,
  what: { method: string; url: string; requestId: string },
): void {
  const translated = translatePgError(err);
  const apiError = translated instanceof ApiError ? translated : internalError();
  const body = toErrorBody(apiError);
  if (apiError.status >= 500) {
    log.error({ err, ...what, errorToken: body.error_token }, 'request failed');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, apiError.status, body);
}
