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
 * Errors that say the database could not be asked, not that the request was wrong: admin
 * shutdown or terminated backends (57P01–57P03), connection failures (class 08), too many
 * connections (53300), statement timeout or cancel (57014), and the driver's own socket and
 * pool timeout errors, which carry no SQLSTATE.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '53300',
  '53400',
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

/** True when `err` means the database is unreachable or stalled (the request may be retried). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as PgLikeError;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) {
    return true;
  }
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
}

/**
 * The one place PostgreSQL errors become API errors. Input that slips past validation and
 * still upsets the database is the client's fault (422), never a 500; a database that cannot
 * be reached is 503, never a 500 or a 401.
 */
export function translatePgError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnavailable(err)) return new ServiceUnavailableError();
  if (!isPgError(err)) return err;
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
