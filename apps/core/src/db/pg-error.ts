import { ApiError, UnprocessableError } from '@svc/errors';

interface PgLikeError {
  code?: string;
  message?: string;
}

const isPgError = (e: unknown): e is PgLikeError =>
  typeof e === 'object' && e !== null && typeof (e as PgLikeError).code === 'string';

/**
 * The one place PostgreSQL errors become API errors. Input that slips past validation and
 * still upsets the database is the client's fault (422), never a 500.
 */
export function translatePgError(err: unknown): unknown {
  if (err instanceof ApiError || !isPgError(err)) return err;
  switch (err.code) {
    case '23505':
      return new UnprocessableError('duplicate key value violates unique constraint');
    case '22P02': // invalid text representation
    case '22003': // numeric value out of range
    case '22007': // invalid datetime format
    case '22008': // datetime field overflow
    case '22023': // invalid parameter value
    case '22021': // character not in repertoire (NUL bytes)
    case '22025': // invalid escape sequence
    case '2201B': // invalid regular expression
    case '54000': // program limit exceeded
      return new UnprocessableError(`invalid input: ${err.message ?? err.code}`);
    default:
      return err;
  }
}
