/**
 * Errors and headers (requests-and-errors.md §2, §5, §6; the § numbers of test names are that
 * chapter's): the error shape and statuses, the order of the checks, tokens in headers and
 * parameters, request ids, CORS, content types, and the built-in objects.
 */
import { useDeployment } from '../harness/deployment';
import { rootObjectsIn } from '../harness/objects';
import { makeUser } from '../harness/users';

const MAX_REQUEST_SIZE = 4096;
const d = useDeployment({
  configure: (_id, c) => (c['API'] = { MaxRequestSize: MAX_REQUEST_SIZE }),
});
const root = () => d.current.root;
const { namedProject: project } = rootObjectsIn(d);
const MISSING_GROUP = 'home1-j7d0g-nosuchgroup0000';
const JSON_UTF8 = 'application/json; charset=utf-8';
const fetchDoc = () => d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest');
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;

describe('error bodies and statuses', () => {
  it('have the contract shape', async () => {
    const res = await root().request('GET', '/svc/v1/groups/home1-j7d0g-nosuchgroup0000');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(res.body).sort()).toEqual(['error_token', 'errors']);
    expect(res.body.errors).toEqual(['Object not found']);
    expect(res.body.error_token).toMatch(ERROR_TOKEN);
  });

  it.each([
    ['GET', '/svc/v1/nothing'],
    ['GET', '/svc/v1/groups/x/y/z'],
    ['GET', '/svc/v2/groups'],
    // other GET paths serve the web console (console-static.test.ts)
    ['POST', '/elsewhere'],
    ['GET', '/discovery/v2/apis'],
    ['GET', '/svc/v1'],
    // A sub-path that names no object is an unknown route, not a known one with a wrong method.
    ['POST', '/svc/v1/users/bogus'],
    ['POST', '/svc/v1/collections/notauuid'],
    ['PUT', '/svc/v1/groups/contents/more'],
  ])('%s %s is 404 API endpoint not found', async (method, path) => {
    const res = await root().request(method, path);
    expect([res.status, res.body.errors]).toEqual([404, ['API endpoint not found']]);
  });

  it.each([
    ['PATCH', '/svc/v1/collections'],
    ['DELETE', '/svc/v1/groups'],
    ['POST', '/svc/v1/groups/home1-j7d0g-000000000000000'],
    ['PUT', '/svc/v1/users/current'],
  ])('%s %s is 405 Method not allowed', async (method, path) => {
    const res = await root().request(method, path);
    expect([res.status, res.body.errors]).toEqual([405, ['Method not allowed']]);
  });

  it('answers 404 before 401 for unknown routes, and 401 before 422', async () => {
    const unknown = await root().request('GET', '/svc/v1/nothing', { token: null });
    expect(unknown.status).toBe(404);
    const bad = await root().request('POST', '/svc/v1/groups', {
      raw: { body: '{nope', contentType: 'application/json' },
      token: null,
    });
    expect([bad.status, bad.body.errors]).toEqual([401, ['Not logged in']]);
  });

  it.each(['{nope', '[1,2]', '"text"', 'null', '42'])(
    'answers 422 for the JSON body %p',
    async (body) => {
      const res = await root().request('POST', '/svc/v1/groups', {
        raw: { body, contentType: 'application/json' },
      });
      expect([res.status, res.body.errors]).toEqual([
        422,
        ['Could not parse request body as a JSON object'],
      ]);
    },
  );

  it('answers 413 for a body over API.MaxRequestSize', async () => {
    const big = JSON.stringify({ workflow: { description: 'x'.repeat(5000) } });
    const res = await root().request('POST', '/svc/v1/workflows', {
      raw: { body: big, contentType: 'application/json' },
    });
    expect([res.status, res.body.errors]).toEqual([413, ['Request body too large']]);
    const small = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { description: 'x'.repeat(3000) } },
    });
    expect(small.status).toBe(200);
  });

  it('answers 401 Not logged in without a valid token', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'Basic abc' },
    ] as Record<string, string>[]) {
      const res = await root().request('GET', '/svc/v1/groups', { token: null, headers });
      expect([res.status, res.body.errors]).toEqual([401, ['Not logged in']]);
    }
  });

  it('takes the token from OAuth2 headers and the api_token parameter', async () => {
    const token = d.current.home.rootToken;
    const oauth = await root().request('GET', '/svc/v1/users/current', {
      token: null,
      headers: { authorization: `OAuth2 ${token}` },
    });
    const param = await root().request('GET', '/svc/v1/users/current', {
      token: null,
      query: { api_token: token },
    });
    const v2 = await root().request('GET', '/svc/v1/users/current', {
      token: `v2/home1-gj3su-000000000000000/${token}`,
    });
    expect([oauth.status, param.status, v2.status]).toEqual([200, 200, 200]);
    const headerWins = await root().request('GET', '/svc/v1/users/current', {
      token: null,
      headers: { authorization: 'Bearer wrong' },
      query: { api_token: token },
    });
    expect(headerWins.status).toBe(401);
  });

  it('§2: checks route, body size, token and scopes before parameters and lookup', async () => {
    const anon = d.current.client(null);
    const wrongMethod = await anon.request('PATCH', '/svc/v1/collections', {
      json: { description: 'x'.repeat(MAX_REQUEST_SIZE) },
    });
    expect([wrongMethod.status, wrongMethod.body.errors]).toEqual([405, ['Method not allowed']]);
    const tooLarge = await anon.request('POST', '/svc/v1/workflows', {
      json: { workflow: { description: 'x'.repeat(MAX_REQUEST_SIZE) } },
    });
    expect([tooLarge.status, tooLarge.body.errors]).toEqual([413, ['Request body too large']]);
    for (const [path, query] of [
      ['/svc/v1/groups', { limit: 'foo' }],
      ['/svc/v1/groups', { filters: [['bogus', '=', 1]] }],
      [`/svc/v1/groups/${MISSING_GROUP}`, {}],
    ] as const) {
      const res = await anon.request('GET', path, { query });
      expect([path, res.status, res.body.errors]).toEqual([path, 401, ['Not logged in']]);
    }
    const u = await makeUser(d.current, {}, { scopes: ['GET /svc/v1/groups'] });
    for (const [path, query] of [
      ['/svc/v1/collections', { limit: 'foo' }],
      ['/svc/v1/collections/home1-4zz18-nosuchthing0000', {}],
    ] as const) {
      const res = await u.client.request('GET', path, { query });
      expect([path, res.status, res.body.errors]).toEqual([path, 403, ['Forbidden']]);
    }
    expect((await u.client.request('GET', '/svc/v1/groups')).status).toBe(200);
  });

  it('§2: checks parameters before lookup, and permission before validation', async () => {
    const missing = await root().request('GET', `/svc/v1/groups/${MISSING_GROUP}`, {
      query: { select: ['bogus'] },
    });
    expect([missing.status, missing.body.errors]).toEqual([
      422,
      ["Invalid attribute 'bogus' in select parameter"],
    ]);
    const owner = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const p = await project('read-only for the reader', owner);
    const link = await root().request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: reader.uuid, head_uuid: p },
      },
    });
    expect(link.status).toBe(200);
    const invalidBody = await reader.client.request('PUT', `/svc/v1/groups/${p}`, {
      json: { group: { bogus: 1, name: 5 } },
    });
    expect([invalidBody.status, invalidBody.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${p}`],
    ]);
    const invalidParam = await reader.client.request('PUT', `/svc/v1/groups/${p}`, {
      query: { select: ['bogus'] },
      json: { group: { name: 'x' } },
    });
    expect([invalidParam.status, invalidParam.body.errors]).toEqual([
      422,
      ["Invalid attribute 'bogus' in select parameter"],
    ]);
  });
});

describe('headers', () => {
  it('echoes a valid X-Request-Id and makes one otherwise', async () => {
    const echoed = await root().request('GET', '/svc/v1/users/current', {
      headers: { 'x-request-id': 'my id 42' },
    });
    expect(echoed.headers['x-request-id']).toBe('my id 42');
    const made = await root().request('GET', '/svc/v1/nothing', {
      headers: { 'x-request-id': 'x'.repeat(1025) },
    });
    expect(made.headers['x-request-id']).toMatch(/^req-[0-9a-z]{20}$/);
  });

  it('carries CORS headers on API answers, errors included, and answers OPTIONS without a token', async () => {
    for (const res of [
      await root().request('GET', '/svc/v1/users/current'),
      await root().request('GET', '/svc/v1/groups/home1-j7d0g-nosuchgroup0000'),
      await root().request('GET', '/discovery/v1/apis/svc/v1/rest', { token: null }),
    ]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe(
        'GET, HEAD, OPTIONS, PUT, POST, PATCH, DELETE',
      );
      expect(res.headers['access-control-allow-headers']).toBe(
        'Authorization, Content-Type, X-Http-Method-Override, X-Request-Id',
      );
      expect(res.headers['access-control-max-age']).toBe('86400');
    }
    const options = await root().request('OPTIONS', '/svc/v1/groups/anything', { token: null });
    expect([options.status, options.text]).toEqual([200, '']);
    expect(options.headers['access-control-allow-origin']).toBe('*');
  });

  it('handles HEAD as GET without a body', async () => {
    const res = await root().request('HEAD', '/svc/v1/users/current');
    expect([res.status, res.text]).toEqual([200, '']);
    const missing = await root().request('HEAD', '/svc/v1/groups/home1-j7d0g-nosuchgroup0000');
    expect([missing.status, missing.text]).toEqual([404, '']);
  });

  it('§2, §6: OPTIONS on the discovery path is 200, empty, with CORS, without a token', async () => {
    for (const token of [null, 'not-a-valid-token']) {
      const res = await d.current
        .client(token)
        .request('OPTIONS', '/discovery/v1/apis/svc/v1/rest');
      expect([res.status, res.text]).toEqual([200, '']);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, OPTIONS, PUT, POST, PATCH, DELETE',
        'access-control-allow-headers':
          'Authorization, Content-Type, X-Http-Method-Override, X-Request-Id',
        'access-control-max-age': '86400',
      });
    }
  });

  it('§5: answers every success with application/json; charset=utf-8', async () => {
    const created = await root().request('POST', '/svc/v1/workflows', { json: {} });
    const path = `/svc/v1/workflows/${created.body.uuid}`;
    const answers = [
      created,
      await root().request('GET', path),
      await root().request('PUT', path, { json: { workflow: { name: 'ct' } } }),
      await root().request('GET', '/svc/v1/workflows'),
      await root().request('GET', '/svc/v1/users/current'),
      await root().request('GET', '/svc/v1/config'),
      await root().request('DELETE', path),
    ];
    expect(answers.map((a) => [a.status, a.headers['content-type']])).toEqual(
      answers.map(() => [200, JSON_UTF8]),
    );
    const doc = await fetchDoc();
    expect(doc.headers['content-type']).toMatch(/^application\/json/);
  });

  it('§6: makes a request id when there is none or it is not 1-1024 printable ASCII', async () => {
    const REQ_ID = /^req-[0-9a-z]{20}$/;
    const none1 = await root().request('GET', '/svc/v1/users/current');
    const none2 = await root().request('GET', '/svc/v1/users/current');
    expect(none1.headers['x-request-id']).toMatch(REQ_ID);
    expect(none2.headers['x-request-id']).toMatch(REQ_ID);
    expect(none1.headers['x-request-id']).not.toBe(none2.headers['x-request-id']);
    const longest = `~${'x'.repeat(1022)}!`;
    const kept = await root().request('GET', '/svc/v1/users/current', {
      headers: { 'x-request-id': longest },
    });
    expect(kept.headers['x-request-id']).toBe(longest);
    const onError = await root().request('GET', `/svc/v1/groups/${MISSING_GROUP}`, {
      headers: { 'x-request-id': 'error id 7' },
    });
    expect([onError.status, onError.headers['x-request-id']]).toEqual([404, 'error id 7']);
    const tab = await root().request('GET', '/svc/v1/users/current', {
      headers: { 'x-request-id': 'a\tb' },
    });
    expect(tab.headers['x-request-id']).toMatch(REQ_ID);
  });
});

describe('built-in objects', () => {
  it('exist from the first start and cannot be deleted', async () => {
    const b = (s: string) => `home1-${s}`;
    const expected: [string, string, Record<string, unknown>][] = [
      ['users', b('tpzed-000000000000000'), { is_admin: true, is_active: true, username: 'root' }],
      ['groups', b('j7d0g-000000000000000'), { group_class: 'role' }],
      ['groups', b('j7d0g-fffffffffffffff'), { group_class: 'role', name: 'All users' }],
      ['users', b('tpzed-anonymouspublic'), { is_active: false }],
      ['groups', b('j7d0g-anonymouspublic'), { group_class: 'role', name: 'Anonymous users' }],
      ['api_clients', b('ozdt8-000000000000000'), { is_trusted: true, name: 'svc internal' }],
    ];
    for (const [type, uuid, attrs] of expected) {
      const got = await root().request('GET', `/svc/v1/${type}/${uuid}`);
      expect([uuid, got.status]).toEqual([uuid, 200]);
      expect(got.body).toMatchObject(attrs);
      const del = await root().request('DELETE', `/svc/v1/${type}/${uuid}`);
      expect([uuid, del.status, del.body.errors]).toEqual([uuid, 403, ['Forbidden']]);
    }
    const system = await root().request('GET', '/svc/v1/users/system');
    expect(system.body.uuid).toBe(b('tpzed-000000000000000'));
  });

  it("reports the root token's own record", async () => {
    const res = await root().request('GET', '/svc/v1/api_client_authorizations/current');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uuid: 'home1-gj3su-000000000000000',
      owner_uuid: 'home1-tpzed-000000000000000',
      api_token: d.current.home.rootToken,
      scopes: ['all'],
      expires_at: null,
    });
  });

  it('serves the public config without secrets', async () => {
    const res = await root().request('GET', '/svc/v1/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ClusterID: 'home1',
      API: { MaxItemsPerResponse: 1000, MaxRequestSize: 4096 },
    });
    expect(res.text).not.toContain(d.current.home.rootToken);
    expect(res.text).not.toMatch(/postgres:|pglite:/);
  });
});
