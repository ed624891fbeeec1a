import { ServiceUnavailableError, UnprocessableError } from '@svc/errors';
import { isDatabaseUnavailable, translatePgError } from './pg-error';

const pgError = (code: string, message = 'raw text from postgres: relation "x" at $1') =>
  Object.assign(new Error(message), { code });

describe('translatePgError', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['57014', 'canceling statement due to statement timeout'],
    ['08006', 'connection failure'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
  ])('%s (%s) is 503: the database cannot be asked', (code, message) => {
    const out = translatePgError(pgError(code, message));
    expect(out).toBeInstanceOf(ServiceUnavailableError);
    expect((out as ServiceUnavailableError).status).toBe(503);
  });

  it.each([
    'timeout exceeded when trying to connect',
    'Connection terminated unexpectedly',
    'Query read timeout',
  ])('the driver error %p (no SQLSTATE) is 503', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    expect(translatePgError(new Error(message))).toBeInstanceOf(ServiceUnavailableError);
  });

  it.each(['40001', '40P01'])('%s left after the retries is 503, nothing written', (code) => {
    expect(translatePgError(pgError(code))).toBeInstanceOf(ServiceUnavailableError);
  });

  it.each(['22P02', '22003', '22007', '22008', '22021', '22P05', '2201B', '54000', '54001'])(
    '%s is 422 without PostgreSQL text',
    (code) => {
      const out = translatePgError(pgError(code)) as UnprocessableError;
      expect(out).toBeInstanceOf(UnprocessableError);
      expect(out.messages.join(' ')).not.toMatch(/postgres|relation|\$1/);
    },
  );

  it('leaves other errors alone (500)', () => {
    const err = pgError('42P01');
    expect(translatePgError(err)).toBe(err);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });
});
