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
    ['53200', 'out of memory'],
    ['57P04', 'database dropped'],
    ['55000', 'database "x" is not currently accepting connections'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
  ])('%s (%s) is 503: the database cannot be asked', (code, message) => {
    const out = translatePgError(pgError(code, message));
    expect(out).toBeInstanceOf(ServiceUnavailableError);
    expect((out as ServiceUnavailableError).messages).toEqual([
      'Service unavailable: the cluster database cannot be reached',
    ]);
    // Counted by the outage, which logs once: not a line per request.
    expect((out as ServiceUnavailableError).loggedPerRequest).toBe(false);
  });

  it('55000 raised by a statement (not at connection) is not an outage', () => {
    expect(isDatabaseUnavailable(pgError('55000', 'cannot lock rows in view "v"'))).toBe(false);
  });

  it('a lock wait past lock_timeout (55P03) is 503 "the object is busy"', () => {
    const out = translatePgError(pgError('55P03', 'canceling statement due to lock timeout'));
    expect((out as ServiceUnavailableError).messages).toEqual([
      'Service unavailable: the object is busy, try again',
    ]);
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
