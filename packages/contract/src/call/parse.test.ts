import { EndpointNotFoundError, MethodNotAllowedError, UnprocessableError } from '@svc/errors';
import { endpointId } from '../endpoints';
import { parseRequest, preRoute, typedOptions, type RequestParts } from './parse';

const parts = (p: Partial<RequestParts> & { pathname: string }): RequestParts => ({
  method: 'GET',
  query: {},
  body: { kind: null, fields: null, error: null },
  methodOverride: undefined,
  authorization: undefined,
  ...p,
});
const json = (fields: Record<string, unknown>) => ({ kind: 'json' as const, fields, error: null });
const form = (fields: Record<string, unknown>) => ({ kind: 'form' as const, fields, error: null });

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof UnprocessableError) return e.messages[0]!;
    throw e;
  }
  throw new Error('no error');
};

describe('parseRequest: one HTTP request → the operation it names', () => {
  it('finds the operation, with path variables winning over body and query', () => {
    const p = parseRequest(
      parts({
        method: 'PUT',
        pathname: '/svc/v1/groups/zzzzz-j7d0g-012345678901234',
        query: { uuid: 'from-query', select: '["uuid"]' },
        body: json({ uuid: 'from-body', group: { name: 'x' } }),
      }),
    );
    expect(endpointId(p.endpoint)).toBe('svc.groups.update');
    expect(p.params['uuid']).toBe('zzzzz-j7d0g-012345678901234');
    expect(p.params['select']).toBe('["uuid"]');
  });

  it('applies the method override (_method before the header) and reads the token', () => {
    const p = parseRequest(
      parts({
        method: 'POST',
        pathname: '/svc/v1/collections',
        body: form({ _method: 'get', filters: '[]' }),
        methodOverride: 'DELETE',
        authorization: 'Bearer abc',
      }),
    );
    expect([endpointId(p.endpoint), p.method, p.token]).toEqual([
      'svc.collections.list',
      'GET',
      'abc',
    ]);
    const byParam = parseRequest(
      parts({ pathname: '/svc/v1/users/current', query: { api_token: 't', remote: 'rmt02' } }),
    );
    expect([byParam.token, byParam.remote]).toEqual(['t', 'rmt02']);
    const notHonoured = parseRequest(
      parts({ pathname: '/svc/v1/users', query: { remote: 'rmt02' } }),
    );
    expect(notHonoured.remote).toBeNull();
  });

  it('refuses unknown routes (404) and known ones with another method (405)', () => {
    expect(() => preRoute('GET', '/svc/v1/nothing')).toThrow(EndpointNotFoundError);
    expect(() => preRoute('PATCH', '/svc/v1/collections')).toThrow(MethodNotAllowedError);
    expect(() => preRoute('POST', '/svc/v1/collections')).not.toThrow();
    expect(() => parseRequest(parts({ method: 'PATCH', pathname: '/svc/v1/collections' }))).toThrow(
      MethodNotAllowedError,
    );
  });
});

describe('typedOptions: raw parameters → the typed options of the call', () => {
  it('converts each declared parameter by its type and drops unknown names', () => {
    const p = parseRequest(
      parts({
        pathname: '/svc/v1/groups',
        query: {
          limit: '5',
          distinct: '1',
          filters: '[["name","=","x"]]',
          order: 'name asc, uuid',
          alt: 'json',
        },
      }),
    );
    expect(typedOptions(p)).toEqual({
      limit: 5,
      distinct: true,
      filters: [['name', '=', 'x']],
      order: ['name asc', 'uuid'],
    });
  });

  it('takes attributes from the wrapper, the camelCase wrapper, or a bare JSON body', () => {
    const create = (body: Record<string, unknown>, path = '/svc/v1/container_requests') =>
      typedOptions(parseRequest(parts({ method: 'POST', pathname: path, body: json(body) })));
    expect(create({ container_request: { name: 'a' } })['attributes']).toEqual({ name: 'a' });
    expect(create({ containerRequest: '{"name":"b"}' })['attributes']).toEqual({ name: 'b' });
    expect(create({ name: 'c', ensure_unique_name: true, alt: 'json' })).toEqual({
      ensure_unique_name: true,
      attributes: { name: 'c' },
    });
    expect(messageOf(() => create({ container_request: 'nope' }))).toBe(
      'No container_request hash provided with request',
    );
  });

  it('reports a body that is not a JSON object, and bad values, as 422', () => {
    const bad = parseRequest(
      parts({
        method: 'POST',
        pathname: '/svc/v1/groups',
        body: {
          kind: 'json',
          fields: null,
          error: 'Could not parse request body as a JSON object',
        },
      }),
    );
    expect(messageOf(() => typedOptions(bad))).toBe(
      'Could not parse request body as a JSON object',
    );
    const limit = parseRequest(parts({ pathname: '/svc/v1/groups', query: { limit: '-1' } }));
    expect(messageOf(() => typedOptions(limit))).toBe('Invalid value for limit parameter');
  });

  it('refuses values nested deeper than the server stores or reads back', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    const p = parseRequest(
      parts({
        method: 'POST',
        pathname: '/svc/v1/collections',
        body: json({ properties: { a: deep } }),
      }),
    );
    expect(messageOf(() => typedOptions(p))).toBe(
      'properties is nested too deeply (at most 100 levels)',
    );
  });
});
