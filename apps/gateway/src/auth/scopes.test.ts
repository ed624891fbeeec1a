import { requestString, scopesPermit } from './scopes';

const U = '/svc/v1/collections/home1-4zz18-aaaaaaaaaaaaaaa';
const V = '/svc/v1/collections/home1-4zz18-bbbbbbbbbbbbbbb';

describe('request strings', () => {
  it.each([
    ['PUT', '/svc/v1/groups/x', 'PATCH /svc/v1/groups/x'],
    ['HEAD', '/svc/v1/groups/', 'GET /svc/v1/groups'],
    ['GET', '/', 'GET /'],
  ])('%s %s → %s', (method, path, expected) => expect(requestString(method, path)).toBe(expected));
});

describe('the spec example table (auth.md §8)', () => {
  it.each([
    [['GET /svc/v1/collections'], 'GET', '/svc/v1/collections', true],
    [['GET /svc/v1/collections'], 'GET', '/svc/v1/collections/', true],
    [['GET /svc/v1/collections'], 'POST', '/svc/v1/collections', false],
    [['GET /svc/v1/collections'], 'GET', '/svc/v1/groups', false],
    [['GET /svc/v1/collections'], 'GET', U, false],
    [['GET /svc/v1/collections/'], 'GET', U, true],
    [['GET /svc/v1/collections/'], 'HEAD', U, true],
    [['GET /svc/v1/collections/'], 'GET', '/svc/v1/collections', false],
    [['GET /svc/v1/collections', 'GET /svc/v1/collections/'], 'GET', '/svc/v1/collections', true],
    [['GET /svc/v1/collections', 'GET /svc/v1/collections/'], 'GET', U, true],
    [[`GET ${U}`], 'GET', U, true],
    [[`GET ${U}`], 'GET', V, false],
    [[`GET ${U}`], 'GET', '/svc/v1/collections', false],
    [['GET /'], 'GET', '/svc/v1/anything', true],
    [['GET /'], 'HEAD', '/svc/v1/anything', true],
    [['GET /'], 'POST', '/svc/v1/collections', false],
    [['GET /'], 'PUT', U, false],
    [['GET /'], 'PATCH', U, false],
    [['GET /'], 'DELETE', U, false],
    [['PATCH /svc/v1/groups/'], 'PUT', '/svc/v1/groups/x', true],
    [['GET /svc/v1/users'], 'GET', '/svc/v1/users/current', false],
    [[], 'GET', '/svc/v1/api_client_authorizations/current', true],
    [[], 'GET', '/svc/v1/api_client_authorizations/current/', true],
    [[], 'GET', '/svc/v1/collections', false],
    [['all'], 'DELETE', U, true],
  ])('%j permits %s %s: %s', (scopes, method, path, permitted) => {
    expect(scopesPermit(scopes as string[], method as string, path as string)).toBe(permitted);
  });
});
