import type { ServerResponse } from 'node:http';
import { answerError as answer, type ErrorLog } from '@svc/http-kit';
import type { DatabaseOutage } from '../db/outage';
import { isDatabaseUnavailable, translatePgError } from '../db/pg-error';

/**
 * The core's only error→HTTP mapping: PostgreSQL errors are translated into the contract's
 * (db/pg-error.ts), then answered like every error (`{errors, error_token}`, 5xx logged). A
 * refusal because the database cannot be reached is counted by the outage, which logs once.
 */
export function answerError(
  res: ServerResponse,
  err: unknown,
  log: ErrorLog,
  what: { method: string; url: string; requestId: string },
  outage: DatabaseOutage,
): void {
  if (isDatabaseUnavailable(err)) outage.refused(err);
  answer(res, translatePgError(err), log, what);
}
