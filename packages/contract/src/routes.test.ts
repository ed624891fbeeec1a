import { matchRoute } from './routes';

const route = (method: string, path: string) => {
  const m = matchRoute(method, path);
  return m.kind === 'endpoint' ? `${m.endpoint.resource}.${m.endpoint.name}` : m.kind;
};

describe('matchRoute', () => {
  it.each([
    ['GET', '/svc/v1/collections', 'collections.list'],
    ['GET', '/svc/v1/collections/', 'collections.list'],
    ['POST', '/svc/v1/groups', 'groups.create'],
    ['GET', '/svc/v1/groups/home1-j7d0g-000000000000000', 'groups.get'],
    ['HEAD', '/svc/v1/groups/home1-j7d0g-000000000000000', 'groups.get'],
    ['PUT', '/svc/v1/groups/x', 'groups.update'],
    ['PATCH', '/svc/v1/groups/x', 'groups.update'],
    ['DELETE', '/svc/v1/groups/x', 'groups.delete'],
    ['GET', '/svc/v1/users/current', 'users.current'],
    ['GET', '/svc/v1/users/system', 'users.system'],
    ['GET', '/svc/v1/api_client_authorizations/current', 'api_client_authorizations.current'],
    ['GET', '/svc/v1/config', 'configs.get'],
  ])('%s %s → %s', (method, path, expected) => {
    expect(route(method, path)).toBe(expected);
  });

  it('answers 404, not 405, for a sub-path that names no object (users/bogus)', () => {
    expect(route('POST', '/svc/v1/users/bogus')).toBe('not-found');
    expect(route('POST', '/svc/v1/collections/x')).toBe('not-found');
    expect(route('PUT', '/svc/v1/groups/contents/extra')).toBe('not-found');
  });

  it('answers 405 for a known path with another method', () => {
    expect(route('GET', '/svc/v1/users/setup')).toBe('method-not-allowed');
    expect(route('POST', '/svc/v1/computed_permissions')).toBe('method-not-allowed');
    expect(route('PATCH', '/svc/v1/collections')).toBe('method-not-allowed');
    expect(route('POST', '/svc/v1/collections/zzzzz-4zz18-012345678901234')).toBe(
      'method-not-allowed',
    );
    expect(route('POST', '/svc/v1/collections/d41d8cd98f00b204e9800998ecf8427e+0')).toBe(
      'method-not-allowed',
    );
  });

  it('matches named segments before a uuid segment', () => {
    expect(route('PUT', '/svc/v1/users/current')).toBe('method-not-allowed');
    expect(route('DELETE', '/svc/v1/api_client_authorizations/current')).toBe('method-not-allowed');
  });

  it.each([
    '/svc/v1/nothing',
    '/svc/v1/collections/a/b/c',
    '/svc/v2/collections',
    '/foo',
    '/svc/v1/collections/%E0%A4%A',
    '/svc/v1/collections/..',
    '/svc/v1/collections/./x',
    '/svc/v1/collections/..%2Fgroups',
    '/svc/v1/groups/x%2F..%2Fy',
    '/svc/v1/groups/%2e%2e',
  ])('answers 404 for %s', (path) => {
    expect(route('GET', path)).toBe('not-found');
  });

  it('decodes path segments', () => {
    const m = matchRoute('GET', '/svc/v1/collections/d41d8cd98f00b204e9800998ecf8427e%2B0');
    expect(m.kind === 'endpoint' && m.path['uuid']).toBe('d41d8cd98f00b204e9800998ecf8427e+0');
  });
});
