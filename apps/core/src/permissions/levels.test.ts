import { levelOfLinkName, MANAGE, NONE, PERMISSION_NAMES, READ, WRITE } from './levels';

describe('permission levels (permissions.md §1, §3)', () => {
  it('number the levels none 0, can_read 1, can_write 2, can_manage 3', () => {
    expect([NONE, READ, WRITE, MANAGE]).toEqual([0, 1, 2, 3]);
  });

  it.each([
    ['can_read', READ],
    ['can_write', WRITE],
    ['can_manage', MANAGE],
    // "A link named can_login counts as level 1."
    ['can_login', READ],
    // Anything else grants nothing.
    ['can_admin', NONE],
    ['CAN_READ', NONE],
    ['', NONE],
    [null, NONE],
    [undefined, NONE],
    [3, NONE],
  ])('give a link named %p level %p', (name, level) => {
    expect(levelOfLinkName(name)).toBe(level);
  });

  it('accept exactly the four names of a permission link', () => {
    expect([...PERMISSION_NAMES].sort()).toEqual([
      'can_login',
      'can_manage',
      'can_read',
      'can_write',
    ]);
  });
});
