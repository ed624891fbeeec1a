import { UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';
import type { Row } from '../common/row';
import type { WriteContext } from '../common/rules';
import { checkPermissionUpdate, isRemoteUser } from './rules';

const call = {
  cluster: { ClusterID: 'home1', RemoteClusters: { rmt02: { Host: 'rmt02.example' } } },
} as unknown as Call;

describe('tails of permission links (permissions.md §3)', () => {
  it.each([
    ['rmt02-tpzed-012345678901234', true],
    // Only users, only of configured remote clusters; local users are looked up.
    ['rmt02-j7d0g-012345678901234', false],
    ['zz404-tpzed-012345678901234', false],
    ['home1-tpzed-012345678901234', false],
    ['not a uuid', false],
  ])('%p is a remote user accepted without a lookup: %p', (uuid, remote) => {
    expect(isRemoteUser(call, uuid)).toBe(remote);
  });
});

describe('updates of permission links (permissions.md §3)', () => {
  const permission: Row = {
    link_class: 'permission',
    name: 'can_read',
    tail_uuid: 'home1-tpzed-012345678901234',
    head_uuid: 'home1-j7d0g-012345678901234',
    properties: {},
    owner_uuid: 'home1-tpzed-000000000000000',
  };
  const tag: Row = { ...permission, link_class: 'tag', name: 'x' };

  /** The 422 messages of an update of `current` with `input`, [] when it may go ahead. */
  function refusal(current: Row, input: Record<string, unknown>): readonly string[] {
    const ctx = { call, input, now: '2024-05-01T12:00:00.000000Z' } as unknown as WriteContext;
    try {
      checkPermissionUpdate(ctx, current, { ...current, ...input });
      return [];
    } catch (e) {
      if (!(e instanceof UnprocessableError)) throw e;
      return e.messages;
    }
  }
  const onlyLevel = ['Can only alter permission link level'];

  it.each<[string, Row, Record<string, unknown>, readonly string[]]>([
    ['the level', permission, { name: 'can_manage' }, []],
    ['the same values', permission, { tail_uuid: permission['tail_uuid'], properties: {} }, []],
    ['the tail', permission, { tail_uuid: 'home1-tpzed-012345678901235' }, onlyLevel],
    ['the head', permission, { head_uuid: 'home1-j7d0g-012345678901235' }, onlyLevel],
    ['the properties', permission, { properties: { a: 1 } }, onlyLevel],
    ['the owner', permission, { owner_uuid: 'home1-tpzed-012345678901234' }, onlyLevel],
    ['the link class', permission, { link_class: 'tag' }, onlyLevel],
    ['a tag into a permission', tag, { link_class: 'permission' }, onlyLevel],
    ['an ordinary link', tag, { head_uuid: 'home1-j7d0g-012345678901235' }, []],
  ])('may change %s: %p', (_what, current, input, expected) => {
    expect(refusal(current, input)).toEqual(expected);
  });
});
