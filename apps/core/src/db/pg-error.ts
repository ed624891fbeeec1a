import { msg } from '@svc/contract';
import { ApiError, ServiceUnavailableError, UnprocessableError } from '@svc/errors';

interface PgLikeError {
  code?: string;
  message?: string;
}

const isPgError = (e: unknown): e is PgLikeError =>
  typeof e === 'object' && e !== null && typeof (e as PgLikeError).code === 'string';

/**
 * What the client is told for input that slips past validation and still upsets the
 * database: the class of the problem, never PostgreSQL's own text (which quotes internals).
 */
const INPUT_PROBLEMS: Record<string, string> = {
  '22P02': 'invalid input: a value has the wrong form',
  '22003': 'invalid input: a number is out of range',
  '22007': 'invalid input: a timestamp has the wrong form',
  '22008': 'invalid input: a timestamp is out of range',
  '22023': 'invalid input: a parameter value is invalid',
  '22021': 'invalid input: a string holds a character that cannot be stored',
  '22P05': 'invalid input: a string holds a character that cannot be stored',
  '22025': 'invalid input: invalid escape sequence',
  '2201B': 'invalid input: invalid regular expression',
  '54000': 'invalid input: a value is too large',
  '54001': 'invalid input: a value is nested too deeply',
};

/**
 * SQLSTATE classes that say the database could not be asked, not that the request was wrong:
 * connection exceptions (08), insufficient resources (53: too many connections, out of memory
 * or disk), operator intervention (57: shutdown, recovery, terminated backends, cancelled
 * statements). Besides them, the driver's own socket and pool errors, which carry no SQLSTATE.
 */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57']);

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection ended unexpectedly',
  'Client has encountered a connection error',
  'Client was closed',
  'Cannot use a pool after calling end',
  'Query read timeout',
  'connection timeout',
];

/** 55000 raised while a session starts: the database disallows connections (ALLOW_CONNECTIONS). */
const refusesConnections = (e: PgLikeError & { routine?: unknown }): boolean =>
  e.code === '55000' &&
  (e.routine === 'CheckMyDatabase' || /not currently accepting connections/.test(e.message ?? ''));

/** True when `err` means the database is unreachable or stalled (the request may be retried). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as PgLikeError;
  const { code, message } = e;
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CLASSES.has(code.slice(0, 2))) return true;
    if (refusesConnections(e)) return true;
  }
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
}

/** PostgreSQL's lock_not_available: a lock wait passed API.LockTimeout (lock_timeout). */
const LOCK_TIMEOUT = '55P03';

/** PostgreSQL's query_canceled, which statement_timeout raises. */
export const isStatementTimeout = (err: unknown): boolean => isPgError(err) && err.code === '57014';

/**
 * The one place PostgreSQL errors become API errors. Input that slips past validation and
 * still upsets the database is the client's fault (422), never a 500; a database that cannot
 * be reached is 503, never a 500 or a 401.
 */
export function translatePgError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnavailable(err)) return new ServiceUnavailableError(undefined, false);
  if (!isPgError(err)) return err;
  if (err.code === LOCK_TIMEOUT) return new ServiceUnavailableError(msg.objectBusy());
  // Still in conflict after the transaction's own retries (db/pg-db.ts): nothing was written.
  if (err.code === '40001' || err.code === '40P01') {
    return new ServiceUnavailableError(
      'Service unavailable: the request conflicted with concurrent writes, try again',
    );
  }
  if (err.code === '23505') {
    return new UnprocessableError('duplicate key value violates unique constraint');
  }
  const problem = INPUT_PROBLEMS[err.code!];
  return problem ? new UnprocessableError(problem) : err;
}
