import { UnprocessableError } from '@svc/errors';
import { bodyKindOf, convertParam, effectiveMethod, mergeParams, parseBody } from './index';

const err = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof UnprocessableError) return e.messages[0]!;
    throw e;
  }
  throw new Error('no error');
};

describe('convertParam', () => {
  it('converts integers', () => {
    expect(convertParam('limit', 'integer', '10')).toBe(10);
    expect(convertParam('limit', 'integer', 7)).toBe(7);
    expect(convertParam('offset', 'integer', '99999999999999999999999')).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it.each(['-8', '0x10', 'foo', '', '1234five', -8, 1.5, true, null, [1]])(
    'rejects integer %p',
    (v) => {
      expect(err(() => convertParam('limit', 'integer', v))).toBe(
        'Invalid value for limit parameter',
      );
    },
  );

  it.each([
    [true, true],
    ['true', true],
    [1, true],
    ['1', true],
    [false, false],
    ['false', false],
    [0, false],
    ['0', false],
    ['', false],
    [null, false],
  ])('converts boolean %p', (v, expected) => {
    expect(convertParam('distinct', 'boolean', v)).toBe(expected);
  });

  it('rejects other booleans', () => {
    expect(err(() => convertParam('distinct', 'boolean', 'yes'))).toBe(
      'distinct parameter must be a boolean, true or false',
    );
  });

  it('converts arrays', () => {
    expect(convertParam('select', 'array', '["a","b"]')).toEqual(['a', 'b']);
    expect(convertParam('select', 'array', ['a'])).toEqual(['a']);
    expect(convertParam('select', 'array', '')).toBeUndefined();
    expect(convertParam('select', 'array', null)).toBeUndefined();
    expect(convertParam('order', 'array', 'name asc, uuid desc')).toEqual([
      'name asc',
      'uuid desc',
    ]);
    expect(convertParam('include', 'array', 'owner_uuid')).toEqual(['owner_uuid']);
  });

  it.each([
    ['select', 'name'],
    ['filters', '{}'],
    ['filters', 5],
    ['select', '[1,'],
  ])('rejects array %s=%p', (name, v) => {
    expect(err(() => convertParam(name, 'array', v))).toBe(
      `Could not parse "${name}" param as an array`,
    );
  });

  it('converts strings, "null" meaning null', () => {
    expect(convertParam('count', 'string', 'none')).toBe('none');
    expect(convertParam('cluster_id', 'string', 'null')).toBeNull();
  });

  it('converts where objects', () => {
    expect(convertParam('where', 'object', '{"a":1}')).toEqual({ a: 1 });
    expect(err(() => convertParam('where', 'object', '[1]'))).toBe(
      'Could not parse "where" param as an object',
    );
  });
});

describe('method override', () => {
  it.each([
    ['POST', 'get', undefined, 'GET'],
    ['POST', undefined, 'patch', 'PATCH'],
    ['POST', 'DELETE', 'GET', 'DELETE'],
    ['POST', 'bogus', 'GET', 'GET'],
    ['POST', 'HEAD', undefined, 'POST'],
    ['GET', 'DELETE', 'DELETE', 'GET'],
    ['PUT', undefined, 'GET', 'PUT'],
  ])('%s with _method=%p and header %p is %s', (method, param, header, expected) => {
    expect(effectiveMethod(method, param, header)).toBe(expected);
  });
});

describe('bodies', () => {
  it('knows JSON by content type or by its absence', () => {
    expect(bodyKindOf('application/json; charset=utf-8', 2)).toBe('json');
    expect(bodyKindOf('application/javascript', 2)).toBe('json');
    expect(bodyKindOf('text/plain', 2)).toBe('json');
    expect(bodyKindOf(undefined, 2)).toBe('json');
    expect(bodyKindOf(undefined, 0)).toBeNull();
    expect(bodyKindOf('application/x-www-form-urlencoded', 2)).toBe('form');
    expect(bodyKindOf('application/octet-stream', 2)).toBeNull();
  });

  it('parses JSON objects and reports anything else', async () => {
    expect(await parseBody('application/json', Buffer.from('{"a":1}'))).toEqual({
      kind: 'json',
      fields: { a: 1 },
      error: null,
    });
    for (const text of ['[1]', '"x"', '{bad', 'null']) {
      const parsed = await parseBody('application/json', Buffer.from(text));
      expect(parsed.error).toBe('Could not parse request body as a JSON object');
    }
  });

  it('parses urlencoded and multipart forms', async () => {
    const form = await parseBody(
      'application/x-www-form-urlencoded',
      Buffer.from('_method=GET&filters=%5B%5D'),
    );
    expect(form.fields).toEqual({ _method: 'GET', filters: '[]' });
    const boundary = 'XyZ';
    const multipart = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="limit"\r\n\r\n5\r\n--${boundary}--\r\n`,
    );
    const parsed = await parseBody(`multipart/form-data; boundary=${boundary}`, multipart);
    expect(parsed.fields).toEqual({ limit: '5' });
  });

  it('merges path over body over query', () => {
    expect(
      mergeParams({
        query: { a: 'q', b: 'q', c: 'q' },
        body: { b: 'body', c: 'body' },
        bodyKind: 'json',
        path: { c: 'path' },
      }),
    ).toEqual({ a: 'q', b: 'body', c: 'path' });
  });
});
