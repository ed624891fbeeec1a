import { ForbiddenError } from '@svc/errors';
import type { Call } from '../../call';
import type { Row } from '../common/row';
import type { WriteContext } from '../common/rules';
import { flagProblems, restrictSelfUpdate } from './rules';

const SYSTEM = 'home1-tpzed-000000000000000';
const USER = 'home1-tpzed-012345678901234';

function context(isAdmin: boolean, input: Record<string, unknown> = {}): WriteContext {
  const call = { cluster: { ClusterID: 'home1' }, caller: { isAdmin } } as unknown as Call;
  return { call, input, now: '2024-05-01T12:00:00.000000Z' } as unknown as WriteContext;
}

describe('the admin flags of a user (other-resources.md §5)', () => {
  it.each<[string, Row, string[]]>([
    ['an active admin', { uuid: USER, is_admin: true, is_active: true }, []],
    ['an inactive non-admin', { uuid: USER, is_admin: false, is_active: false }, []],
    [
      'an inactive admin',
      { uuid: USER, is_admin: true, is_active: false },
      ['Admin users cannot be inactive'],
    ],
    ['the system user as admin', { uuid: SYSTEM, is_admin: true, is_active: true }, []],
    [
      'the system user without admin',
      { uuid: SYSTEM, is_admin: false, is_active: true },
      ['cannot remove admin from the system user'],
    ],
    [
      'the system user inactive, without admin',
      { uuid: SYSTEM, is_admin: false, is_active: false },
      ['cannot remove admin from the system user'],
    ],
  ])('%s', (_who, row, problems) => {
    expect(flagProblems(context(true), row)).toEqual(problems);
  });
});

describe('a non-admin updating a user record (other-resources.md §5)', () => {
  const current: Row = {
    uuid: USER,
    owner_uuid: SYSTEM,
    email: 'u@example.com',
    username: 'u',
    identity_url: null,
    is_active: false,
    is_admin: false,
  };
  /** The stored row after the update, or the refusal as [status, message]. */
  function update(isAdmin: boolean, input: Record<string, unknown>): Row | [number, string] {
    const next: Row = { ...current, ...input };
    try {
      restrictSelfUpdate(context(isAdmin, input), current, next);
      return next;
    } catch (e) {
      if (!(e instanceof ForbiddenError)) throw e;
      return [e.status, e.messages[0]!];
    }
  }

  it.each<[Record<string, unknown>, Row | [number, string]]>([
    [
      { first_name: 'F', prefs: { a: 1 } },
      { ...current, first_name: 'F', prefs: { a: 1 } },
    ],
    // Changes to is_active or is_admin are ignored.
    [{ is_active: true, is_admin: true }, current],
    [{ email: 'new@example.com' }, [403, 'Forbidden: only admins may change email']],
    [{ username: 'other' }, [403, 'Forbidden: only admins may change username']],
    [{ identity_url: 'https://id' }, [403, 'Forbidden: only admins may change identity_url']],
    // The same value is no change.
    [{ email: 'u@example.com', username: 'u' }, current],
    [{ owner_uuid: USER }, [403, 'Forbidden']],
  ])('%p', (input, expected) => {
    expect(update(false, input)).toEqual(expected);
  });

  it('lets an admin change every field', () => {
    const input = { email: 'a@example.com', is_active: true, is_admin: true, owner_uuid: USER };
    expect(update(true, input)).toEqual({ ...current, ...input });
  });
});
