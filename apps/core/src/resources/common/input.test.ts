import { groups, links, workflows, type ResourceSpec } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';
import { checkedInput } from './input';

const asUser = { caller: { isAdmin: false } } as unknown as Call;
const asAdmin = { caller: { isAdmin: true } } as unknown as Call;
const MINE = 'home1-7fd4e-012345678901234';

/** The 422 messages of a body, or the input a write would use. */
function check(
  call: Call,
  r: ResourceSpec,
  attrs: Record<string, unknown>,
  mode: 'create' | 'update',
): { input: Record<string, unknown> } | { errors: readonly string[] } {
  try {
    return { input: checkedInput(call, r, attrs, mode, MINE) };
  } catch (e) {
    if (!(e instanceof UnprocessableError)) throw e;
    return { errors: e.messages };
  }
}

describe('the uuid of a create or update body (requests-and-errors.md §4)', () => {
  it.each<[string, Call, ResourceSpec, Record<string, unknown>, 'create' | 'update', unknown]>([
    [
      'a non-admin may not choose it',
      asUser,
      workflows,
      { uuid: 'home1-7fd4e-chosenbyuser000' },
      'create',
      { errors: ['uuid assignment not permitted'] },
    ],
    [
      'an admin may',
      asAdmin,
      workflows,
      { uuid: 'home1-7fd4e-chosenbyadmin00' },
      'create',
      { input: { uuid: 'home1-7fd4e-chosenbyadmin00' } },
    ],
    [
      'it must have the infix of the type',
      asAdmin,
      workflows,
      { uuid: 'home1-j7d0g-chosenbyadmin00' },
      'create',
      { errors: ["uuid 'home1-j7d0g-chosenbyadmin00' is not a valid svc#workflow uuid"] },
    ],
    [
      'it must be 27 characters of [0-9a-z]',
      asAdmin,
      groups,
      { uuid: 'home1-j7d0g-Chosen' },
      'create',
      { errors: ["uuid 'home1-j7d0g-Chosen' is not a valid svc#group uuid"] },
    ],
    [
      'an update may not change it',
      asAdmin,
      workflows,
      { uuid: 'home1-7fd4e-012345678901235' },
      'update',
      { errors: ['uuid change not permitted'] },
    ],
    [
      'an update ignores the same value',
      asUser,
      workflows,
      { uuid: MINE },
      'update',
      { input: {} },
    ],
  ])('%s', (_rule, call, r, attrs, mode, expected) => {
    expect(check(call, r, attrs, mode)).toEqual(expected);
  });
});

describe('create and update bodies (requests-and-errors.md §4, §8)', () => {
  it.each<[string, ResourceSpec, Record<string, unknown>, 'create' | 'update', unknown]>([
    [
      'drops the server-set keys silently',
      workflows,
      {
        name: 'w',
        kind: 'x',
        etag: 'x',
        href: 'x',
        created_at: '2020-01-01',
        modified_at: '2020-01-01',
        modified_by_user_uuid: 'x',
        modified_by_client_uuid: 'x',
        can_write: true,
        can_manage: true,
        writable_by: [],
      },
      'create',
      { input: { name: 'w' } },
    ],
    [
      'requires required attributes on create',
      links,
      { name: 'x', link_class: '' },
      'create',
      { errors: ["link_class can't be blank"] },
    ],
    ['but not on update', links, { name: 'x' }, 'update', { input: { name: 'x' } }],
    [
      'stores datetimes in canonical form, to the microsecond',
      groups,
      { trash_at: '2024-05-01T14:00:00.1234567+02:00' },
      'update',
      { input: { trash_at: '2024-05-01T12:00:00.123456Z' } },
    ],
    [
      'lists every failed rule in one 422',
      workflows,
      { uuid: 'home1-7fd4e-chosenbyuser000', name: 5, bogus: 1 },
      'create',
      {
        errors: expect.arrayContaining([
          'uuid assignment not permitted',
          'name has an invalid type: string required',
          "Unknown attribute 'bogus' for workflow",
        ]),
      },
    ],
  ])('%s', (_rule, r, attrs, mode, expected) => {
    expect(check(asUser, r, attrs, mode)).toEqual(expected);
  });
});
