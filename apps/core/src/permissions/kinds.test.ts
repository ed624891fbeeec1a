import { groupSql, isGroupUuid, isUserUuid, userSql } from './kinds';

describe('what kind of object a uuid names (requests-and-errors.md §1, §9)', () => {
  it.each([
    ['home1-j7d0g-012345678901234', 'group'],
    ['home1-j7d0g-fffffffffffffff', 'group'],
    ['rmt02-j7d0g-anonymouspublic', 'group'],
    ['home1-tpzed-000000000000000', 'user'],
    ['rmt02-tpzed-anonymouspublic', 'user'],
    ['home1-4zz18-012345678901234', 'other'],
    ['home1-o0j2j-012345678901234', 'other'],
    ['j7d0g-tpzed-012345678901234', 'user'],
    ['d41d8cd98f00b204e9800998ecf8427e+0', 'other'],
    ['', 'other'],
  ])('%p names a %s by its infix, characters 7-11', (uuid, kind) => {
    expect([isGroupUuid(uuid), isUserUuid(uuid)]).toEqual([kind === 'group', kind === 'user']);
  });

  it('tests the same characters in SQL, on the column it is given', () => {
    expect([groupSql('l.tail_uuid'), groupSql('l.tail_uuid', true)]).toEqual([
      "substr(l.tail_uuid, 7, 5) = 'j7d0g'",
      "substr(l.tail_uuid, 7, 5) <> 'j7d0g'",
    ]);
    expect([userSql('o.owner_uuid'), userSql('o.owner_uuid', true)]).toEqual([
      "substr(o.owner_uuid, 7, 5) = 'tpzed'",
      "substr(o.owner_uuid, 7, 5) <> 'tpzed'",
    ]);
  });
});
