import { escapeFilterValue, userFilter } from './ldap';

describe('LDAP filters', () => {
  it('escapes assertion values (RFC 4515)', () => {
    expect(escapeFilterValue('a*b(c)d\\e\0f')).toBe('a\\2ab\\28c\\29d\\5ce\\00f');
    expect(escapeFilterValue('plain.user-name@x')).toBe('plain.user-name@x');
  });

  it('ANDs the escaped username with SearchFilters', () => {
    const c = { SearchAttribute: 'uid', SearchFilters: '(objectClass=person)' } as Parameters<
      typeof userFilter
    >[0];
    expect(userFilter(c, 'alice)(uid=*')).toBe(
      '(&(uid=alice\\29\\28uid=\\2a)(objectClass=person))',
    );
    expect(userFilter({ ...c, SearchFilters: '' }, 'bob')).toBe('(&(uid=bob))');
  });
});
