/**
 * The brute-force permission oracle against the contract's worked examples (permissions.md §5,
 * groups.md §6, other-resources.md §5). Pure: no deployment.
 */
import {
  expectedView,
  Oracle,
  type OracleCollection,
  type OracleGroup,
  type OracleLink,
  type OracleUser,
  type World,
} from '../harness/permission-oracle';

const ALL = 'home1-j7d0g-fffffffffffffff';
const SYSTEM = 'home1-tpzed-000000000000000';
const X = 'home1-tpzed-xxxxxxxxxxxxxxx';
const Y = 'home1-tpzed-yyyyyyyyyyyyyyy';
const Z = 'home1-tpzed-zzzzzzzzzzzzzzz';
const R = 'home1-j7d0g-rrrrrrrrrrrrrrr';
const A = 'home1-j7d0g-aaaaaaaaaaaaaaa';
const B = 'home1-j7d0g-bbbbbbbbbbbbbbb';
const C = 'home1-4zz18-ccccccccccccccc';
const D = 'home1-4zz18-ddddddddddddddd';

const user = (uuid: string, attrs: Partial<OracleUser> = {}): OracleUser => ({
  uuid,
  active: true,
  admin: false,
  ...attrs,
});
const link = (tail: string, level: 1 | 2 | 3, head: string): OracleLink => ({ tail, head, level });

/** The setting of the worked examples: X and Y, role R, A owns B owns C, Y owns D. */
function world(
  links: OracleLink[],
  opts: {
    users?: OracleUser[];
    groups?: Partial<Record<string, Partial<OracleGroup>>>;
    owner?: string;
    collections?: OracleCollection[];
  } = {},
): Oracle {
  const owner = opts.owner ?? Y;
  const groups: OracleGroup[] = [
    { uuid: R, groupClass: 'role', ownerUuid: SYSTEM, trashed: false },
    { uuid: A, groupClass: 'project', ownerUuid: owner, trashed: false },
    { uuid: B, groupClass: 'project', ownerUuid: A, trashed: false },
  ].map((g) => ({ ...g, ...opts.groups?.[g.uuid] }) as OracleGroup);
  const w: World = {
    allUsersGroup: ALL,
    users: opts.users ?? [user(X), user(Y)],
    groups,
    collections: opts.collections ?? [
      { uuid: C, ownerUuid: B },
      { uuid: D, ownerUuid: Y },
    ],
    links,
  };
  return new Oracle(w);
}

describe('the oracle follows the worked examples of permissions.md §5', () => {
  it('X owns A, A owns B, B owns C: X can_manage C', () => {
    const o = world([], { owner: X });
    expect([o.levelOf(X, A), o.levelOf(X, B), o.levelOf(X, C)]).toEqual([3, 3, 3]);
  });

  it.each([
    [1, 2, 1],
    [2, 1, 1],
    [2, 2, 2],
  ] as const)('X %i R, R %i A: the minimum along the path (%i)', (xr, ra, level) => {
    const o = world([link(X, xr, R), link(R, ra, A)]);
    expect([o.levelOf(X, A), o.levelOf(X, B), o.levelOf(X, C)]).toEqual([level, level, level]);
  });

  it('the maximum across paths', () => {
    const o = world([link(X, 2, R), link(R, 2, A), link(X, 3, B)]);
    expect([o.levelOf(X, A), o.levelOf(X, B), o.levelOf(X, C)]).toEqual([2, 3, 3]);
  });

  it('can_read on a user gives the record only', () => {
    const o = world([link(X, 1, Y)], { users: [user(X), user(Y, { active: false })] });
    expect([o.levelOf(X, Y), o.levelOf(X, D), o.canSee(X, D)]).toEqual([1, 0, false]);
  });

  it('can_manage on a user gives everything that user has', () => {
    const P = 'home1-j7d0g-ppppppppppppppp';
    const o = new Oracle({
      ...world([link(X, 3, Y), link(Y, 1, P)]).world,
      users: [user(X), user(Y), user(Z)],
      groups: [
        ...world([]).world.groups,
        { uuid: P, groupClass: 'project', ownerUuid: Z, trashed: false },
      ],
    });
    expect([o.levelOf(X, D), o.levelOf(X, A), o.levelOf(X, P), o.levelOf(X, Z)]).toEqual([
      3, 3, 1, 1,
    ]);
  });

  it('acting for managed users is one hop only', () => {
    // X manages Y, Y manages Z, Z owns A (and so B and C).
    const o = world([link(X, 3, Y), link(Y, 3, Z)], {
      users: [user(X), user(Y), user(Z)],
      owner: Z,
    });
    expect([o.levelOf(Y, A), o.levelOf(Y, C)]).toEqual([3, 3]); // Y acts for Z
    // X has Y's levels, so 3 on Z's record, but X does not act for Z.
    expect([o.levelOf(X, Z), o.levelOf(X, A), o.levelOf(X, C)]).toEqual([3, 0, 0]);
    expect(o.managedUsers(X)).toEqual([Y]);
  });

  it('roles give their members nothing about each other', () => {
    const o = world([link(X, 2, R), link(Y, 2, R)], {
      users: [user(X), user(Y, { active: false })],
    });
    expect([o.levelOf(X, Y), o.canSee(X, Y)]).toEqual([0, false]);
  });

  it('a role that can read a user shows that user to its members', () => {
    const o = world([link(X, 1, R), link(R, 1, Y)], {
      users: [user(X), user(Y, { active: false })],
    });
    expect(o.levelOf(X, Y)).toBe(1);
    // … but inactive users stay out of sight of non-admins (other-resources.md §5).
    expect(o.canSee(X, Y)).toBe(false);
  });

  it('a link from a role helps only its members', () => {
    expect(world([link(R, 1, C)]).levelOf(X, C)).toBe(0);
    expect(world([link(R, 1, C), link(X, 1, R)]).levelOf(X, C)).toBe(1);
  });

  it('the all-users group makes active users see each other, and carries its links', () => {
    const o = world([link(ALL, 1, A)], { users: [user(X), user(Y), user(Z, { active: false })] });
    expect([o.levelOf(X, Y), o.canSee(X, Y), o.canSee(X, Z), o.canSee(Z, X)]).toEqual([
      1,
      true,
      false,
      false,
    ]);
    expect([o.levelOf(X, ALL), o.levelOf(X, C), o.levelOf(Z, C)]).toEqual([2, 1, 0]);
  });
});

describe('the oracle hides trash and follows §6–§10', () => {
  it('hides what a trashed group owns, at any depth', () => {
    const o = world([link(X, 3, B)], { groups: { [A]: { trashed: true } } });
    expect([o.canSee(Y, A), o.canSee(Y, B), o.canSee(Y, C), o.canSee(Y, D)]).toEqual([
      false,
      false,
      false,
      true,
    ]);
    // Levels stay (trash does not change the graph, §9), only visibility goes.
    expect([o.levelOf(X, C), o.canSee(X, C), o.isHiddenByAncestor(B)]).toEqual([3, false, true]);
  });

  it('shows roles to active users only, and their trash hides them', () => {
    const o = world([], { users: [user(X), user(Y, { active: false })] });
    expect([o.canSee(X, R), o.canSee(Y, R), o.canSee(X, ALL), o.canSee(Y, ALL)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(world([], { groups: { [R]: { trashed: true } } }).canSee(X, R)).toBe(false);
  });

  it('refuses writes of inactive users and of readers', () => {
    const o = world([link(X, 1, A)], { users: [user(X), user(Y, { active: false })] });
    expect([o.collectionUpdateStatus(X, C), o.collectionUpdateStatus(Y, C)]).toEqual([403, 403]);
    expect([o.collectionUpdateStatus(X, D), o.collectionUpdateStatus(Y, D)]).toEqual([404, 403]);
    expect(world([link(X, 2, A)]).collectionUpdateStatus(X, C)).toBe(200);
  });

  it('gives admins level 3 everywhere, but transfers only path levels to their managers', () => {
    const o = world([link(X, 3, Y)], { users: [user(X), user(Y, { admin: true }), user(Z)] });
    expect([o.levelOf(Y, C), o.levelOf(X, A), o.levelOf(X, Z)]).toEqual([3, 3, 1]);
  });

  it('renders a view', () => {
    const o = world([link(X, 2, A)]);
    expect(expectedView(o, X)).toEqual({
      collections: { [C]: { update: 200 } },
      groups: {
        [R]: { can_write: false, can_manage: false },
        [A]: { can_write: true, can_manage: false },
        [B]: { can_write: true, can_manage: false },
        [ALL]: { can_write: true, can_manage: false },
      },
      users: {
        [X]: { can_write: true, can_manage: true },
        [Y]: { can_write: false, can_manage: false },
      },
    });
  });
});
