/**
 * Hostile input, one case per class of the hardening issue: NUL characters and unpaired
 * surrogates in every hash attribute (values and keys), deep nesting, far-future timestamps,
 * oversized URLs and headers, `Expect: 100-continue` on the API, and 422 messages that never
 * carry PostgreSQL's own text. Each answer is a 4xx in the contract's error shape, and the
 * server keeps serving.
 */
import { useDeployment } from '../harness/deployment';
import { rawExchange } from '../harness/raw-socket';
import { makeUser } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;

function expectClientError(res: { status: number; body: any; text: string }, status?: number) {
  if (status !== undefined) expect(res.status).toBe(status);
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(Object.keys(res.body).sort()).toEqual(['error_token', 'errors']);
  expect(res.body.error_token).toMatch(ERROR_TOKEN);
  expect(res.text).not.toMatch(/postgres|pg_|syntax|SQLSTATE|jsonb|unicode escape/i);
}

async function stillServes() {
  const res = await root().request('GET', '/svc/v1/users/current');
  expect(res.status).toBe(200);
}

const HASH_ATTRIBUTES: [string, string, Record<string, unknown>][] = [
  ['groups', 'group', { group_class: 'project', name: 'hostile' }],
  ['collections', 'collection', {}],
  ['links', 'link', { link_class: 'tag', name: 'x', head_uuid: 'home1-tpzed-000000000000000' }],
  ['workflows', 'workflow', {}],
  ['logs', 'log', { event_type: 'x' }],
];

describe('NUL characters and unpaired surrogates', () => {
  const bad = ['a\u0000b', '\ud800', 'x\udc00y'];
  it.each(HASH_ATTRIBUTES)(
    'in %s properties values and keys answer 422',
    async (type, singular, base) => {
      for (const s of bad) {
        for (const properties of [{ k: s }, { [s]: 1 }, { k: [{ deep: s }] }]) {
          const res = await root().request('POST', `/svc/v1/${type}`, {
            json: { [singular]: { ...base, properties } },
          });
          expectClientError(res, 422);
        }
      }
      await stillServes();
    },
  );

  it.each(['prefs'])('in user %s answers 422', async (attr) => {
    const res = await root().request('POST', '/svc/v1/users', {
      json: { user: { email: 'nul@example.com', [attr]: { k: 'a\u0000' } } },
    });
    expectClientError(res, 422);
  });

  it('names the attribute and the problem', async () => {
    const nul = await root().request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'project', properties: { a: { b: ['x\u0000'] } } } },
    });
    expect([nul.status, nul.body.errors]).toEqual([
      422,
      ['properties must not contain NUL characters'],
    ]);
    const surrogate = await root().request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'project', description: 'x\ud800' } },
    });
    expect([surrogate.status, surrogate.body.errors]).toEqual([
      422,
      ['description must not contain unpaired surrogates'],
    ]);
  });

  it('in plain string attributes answers 422', async () => {
    for (const s of bad) {
      const res = await root().request('POST', '/svc/v1/groups', {
        json: { group: { group_class: 'project', name: `n${s}`, description: s } },
      });
      expectClientError(res, 422);
    }
  });

  it('in container request mounts, runtime constraints and scheduling parameters answers 422', async () => {
    const base = {
      state: 'Uncommitted',
      command: ['echo'],
      container_image: 'img',
      output_path: '/out',
      cwd: '/',
      mounts: { '/out': { kind: 'tmp', capacity: 1 } },
    };
    for (const attrs of [
      {
        mounts: {
          '/out': { kind: 'tmp', capacity: 1 },
          '/x': { kind: 'text', content: 'a\u0000' },
        },
      },
      { mounts: { '/o\u0000ut': { kind: 'tmp', capacity: 1 } } },
      { environment: { K: 'a\u0000' } },
      { command: ['a\u0000'] },
      { scheduling_parameters: { partitions: ['a\u0000'] } },
    ]) {
      const res = await root().request('POST', '/svc/v1/container_requests', {
        json: { container_request: { ...base, ...attrs } },
      });
      expectClientError(res, 422);
    }
  });

  it('in query parameters, filters and path segments answers 4xx', async () => {
    for (const query of [
      { filters: JSON.stringify([['name', '=', 'a\u0000']]) },
      { order: 'name\u0000 asc' },
      { select: JSON.stringify(['uuid\u0000']) },
      { where: JSON.stringify({ name: 'a\u0000' }) },
    ]) {
      expectClientError(await root().request('GET', '/svc/v1/groups', { query }));
    }
    expectClientError(await root().request('GET', '/svc/v1/groups/home1-j7d0g-%00'));
    expectClientError(await root().request('GET', '/svc/v1/groups/%ED%A0%80'));
    await stillServes();
  });

  it('in a form body answers 422', async () => {
    const res = await root().request('POST', '/svc/v1/groups', {
      form: { group: JSON.stringify({ group_class: 'project', name: 'a\u0000' }) },
    });
    expectClientError(res, 422);
  });

  it('invalid UTF-8 bytes in a JSON body never reach the database as such', async () => {
    const body = Buffer.concat([
      Buffer.from('{"group":{"group_class":"project","name":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}}'),
    ]);
    const res = await root().request('POST', '/svc/v1/groups', {
      raw: { body, contentType: 'application/json' },
    });
    expect([200, 422]).toContain(res.status);
    await stillServes();
  });
});

describe('deep nesting', () => {
  // Built as text: JSON.stringify itself overflows the stack on such values.
  const nest = (n: number): string => `${'{"a":'.repeat(n)}"leaf"${'}'.repeat(n)}`;
  const nestArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);

  it('in properties is refused before anything is stored', async () => {
    const res = await root().request('POST', '/svc/v1/groups', {
      raw: {
        body: `{"group":{"group_class":"project","name":"deep","properties":${nest(5000)}}}`,
        contentType: 'application/json',
      },
    });
    expectClientError(res, 422);
    const list = await root().request('GET', '/svc/v1/groups', {
      query: { filters: [['name', '=', 'deep']] },
    });
    expect([list.status, list.body.items_available]).toEqual([200, 0]);
  });

  it.each(['select', 'order', 'filters', 'where'])('in %s answers 4xx', async (name) => {
    const value = name === 'where' ? nest(5000) : nestArray(5000);
    expectClientError(
      await root().request('GET', '/svc/v1/collections', { query: { [name]: value } }),
    );
    const viaBody = await root().request('POST', '/svc/v1/collections', {
      headers: { 'X-Http-Method-Override': 'GET' },
      raw: { body: `{"${name}":${value}}`, contentType: 'application/json' },
    });
    expectClientError(viaBody);
  });

  it('a whole body nested 100,000 levels deep answers 4xx', async () => {
    const res = await root().request('POST', '/svc/v1/groups', {
      raw: {
        body: `{"group":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
        contentType: 'application/json',
      },
    });
    expectClientError(res);
    await stillServes();
  });
});

describe('numbers and timestamps', () => {
  it.each([
    '9999-12-31T23:59:59.9999999Z',
    '10000-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '-4714-01-01T00:00:00Z',
    '294277-01-01T00:00:00Z',
  ])('trash_at %s answers 200 or 422, never 500', async (trashAt) => {
    const res = await root().request('POST', '/svc/v1/collections', {
      json: { collection: { trash_at: trashAt } },
    });
    if (res.status !== 200) expectClientError(res, 422);
  });

  it.each(['1e400', '-1e400', '123456789012345678901234567890', '1.5'])(
    'a huge or fractional number %s in an integer attribute answers 422',
    async (n) => {
      const res = await root().request('POST', '/svc/v1/container_requests', {
        raw: {
          body: `{"container_request":{"priority":${n}}}`,
          contentType: 'application/json',
        },
      });
      expectClientError(res, 422);
    },
  );

  it.each(['1e400', '-1e400'])(
    '%s inside a hash attribute answers 422, not a silent null',
    async (n) => {
      const res = await root().request('POST', '/svc/v1/collections', {
        raw: {
          body: `{"collection":{"properties":{"k":[${n}]}}}`,
          contentType: 'application/json',
        },
      });
      expectClientError(res, 422);
      expect(res.body.errors).toEqual(['properties must not contain numbers out of range']);
    },
  );

  it.each(['1e400', '99999999999999999999999'])('limit=%s answers 200 or 422', async (n) => {
    const res = await root().request('GET', '/svc/v1/groups', { query: { limit: n, offset: n } });
    if (res.status !== 200) expectClientError(res, 422);
  });

  it('timestamps far away in filters answer 200 or 422', async () => {
    for (const t of ['9999-12-31T23:59:59.9999999Z', '99999-01-01', '0001-01-01T00:00:00Z']) {
      const res = await root().request('GET', '/svc/v1/groups', {
        query: { filters: [['created_at', '<', t]] },
      });
      if (res.status !== 200) expectClientError(res, 422);
    }
  });
});

describe('oversized URLs and headers', () => {
  it.each([17_000, 70_000])('a URL of %i bytes answers JSON 414', async (n) => {
    const path = `/svc/v1/groups?filters=${'a'.repeat(n)}`;
    const out = await rawExchange(d.current.url, [
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    ]);
    expect(out).toMatch(/^HTTP\/1\.1 414 /);
    const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
    expect(body.errors).toEqual(['Request-URI Too Large']);
    expect(body.error_token).toMatch(ERROR_TOKEN);
    await stillServes();
  });

  it('headers over the limit answer JSON 431', async () => {
    const out = await rawExchange(d.current.url, [
      `GET /svc/v1/users/current HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(40_000)}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(out).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
    expect(body.errors).toEqual(['Request Header Fields Too Large']);
    await stillServes();
  });

  it('a malformed request line answers JSON 400', async () => {
    const out = await rawExchange(d.current.url, ['GARBAGE\u0000 / HTTP/9\r\n\r\n']);
    expect(out).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4)).errors).toEqual(['Bad Request']);
  });
});

describe('Expect: 100-continue on the API', () => {
  it('is answered with 100 and the request is handled with its body, by its signed caller', async () => {
    const u = await makeUser(d.current);
    const body = JSON.stringify({ group: { group_class: 'project', name: 'continued' } });
    const out = await rawExchange(d.current.url, [
      `POST /svc/v1/groups HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${u.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      { waitFor: '100 Continue' },
      body,
    ]);
    expect(out).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    const created = JSON.parse(out.slice(out.lastIndexOf('\r\n\r\n') + 4));
    expect([created.name, created.owner_uuid]).toEqual(['continued', u.uuid]);
    await stillServes();
  });

  it('an unknown route answers 404 without waiting for the body', async () => {
    const out = await rawExchange(d.current.url, [
      `POST /svc/v1/nothing HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    ]);
    expect(out).toMatch(/^(HTTP\/1\.1 100 Continue\r\n\r\n)?HTTP\/1\.1 404 /);
  });
});

describe('422 messages', () => {
  it('never carry PostgreSQL text', async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['GET', '/svc/v1/groups', { query: { filters: [['created_at', '<', 'notadate']] } }],
      ['GET', '/svc/v1/groups', { query: { filters: [['name', '~', '(']] } }],
      ['GET', '/svc/v1/groups', { query: { filters: [['properties.a', '>', 1e308]] } }],
      [
        'GET',
        '/svc/v1/collections',
        { query: { filters: [['replication_desired', '=', 99999999999]] } },
      ],
    ];
    for (const [method, path, opts] of cases) {
      const res = await root().request(method, path, opts);
      if (res.status !== 200) expectClientError(res, 422);
    }
  });
});
