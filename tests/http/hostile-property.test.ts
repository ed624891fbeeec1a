/**
 * Hostile input over every endpoint of the API table and every position a value can take
 * (path segment, query, JSON body, form body, wrapped attributes, headers), property-based:
 * NUL characters, unpaired surrogates, huge and non-finite numbers, deep nesting, long strings,
 * invalid JSON. Each answer is either a success or a 4xx in the contract's error shape — never
 * a 5xx — and the server keeps serving. Raw cases add oversized URLs and headers and
 * `Expect: 100-continue`. SVC_HOSTILE_RUNS sets the number of cases (default 4,000, sent 8 at
 * a time; the long run uses 100,000).
 */
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { ENDPOINTS } from '@svc/contract';
import { useDeployment } from '../harness/deployment';
import { rawExchange } from '../harness/raw-socket';

const CASES = Number(process.env['SVC_HOSTILE_RUNS'] ?? 4000);
const BATCH = 8;
// About 35 cases a second on a loaded 2-core machine: time enough for the long run too.
const TIME_LIMIT_MS = Math.max(600_000, CASES * 100);
const RAW_RUNS = Math.max(20, Math.floor(CASES / 50));
/** Everything the servers log during the run: a 5xx would show as an error line. */
const lines: string[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  }),
);
const d = useDeployment({ logger });
const root = () => d.current.root;
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;

let existing: string[] = [];
beforeAll(async () => {
  const p = await root().request('POST', '/svc/v1/groups', {
    json: { group: { group_class: 'project', name: 'hostile target' } },
  });
  const c = await root().request('POST', '/svc/v1/collections', { json: { collection: {} } });
  existing = [p.body.uuid, c.body.uuid, 'home1-tpzed-000000000000000'];
});

/** Every byte percent-encoded, so lone surrogates and invalid UTF-8 (`%ED%A0%80`) go through. */
const percentEncoded = (s: string): string =>
  s.startsWith('x%')
    ? s
    : [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const nested = (depth: number, open: string, close: string, leaf = '1') =>
  open.repeat(depth) + leaf + close.repeat(depth);

/** Strings that have broken servers: each a JSON text (so it can be placed raw in a body). */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '"a\\u0000b"',
    '"\\u0000"',
    '"\\ud800"',
    '"x\\udc00"',
    '1e400',
    '-1e400',
    '123456789012345678901234567890',
    '9007199254740993',
    '-0',
    '0.0000001',
    'null',
    'true',
    '[]',
    '{}',
    '""',
    '"9999-12-31T23:59:59.9999999Z"',
    '"0000-01-01T00:00:00Z"',
    '"null"',
    '"\' OR 1=1 --"',
    '"$1"',
    '"%00"',
    '{"\\u0000":1}',
    '{"\\ud800":"x"}',
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{}}}',
    '[["name","=","\\u0000"]]',
    '[["properties.\\u0000","exists",true]]',
  ),
  fc.integer({ min: 50, max: 3000 }).map((n) => nested(n, '[', ']')),
  fc.integer({ min: 50, max: 3000 }).map((n) => nested(n, '{"a":', '}')),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => JSON.stringify('x'.repeat(n))),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
  fc.double().map((x) => (Number.isFinite(x) ? String(x) : '1e999')),
  fc.bigInt().map(String),
);

/** A query or form value: a hostile JSON text, or its string contents. */
const hostileText = hostileJson.map((j) => {
  try {
    const v: unknown = JSON.parse(j);
    return typeof v === 'string' ? v : j;
  } catch {
    return j;
  }
});

const endpoint = fc.constantFrom(...ENDPOINTS);
const paramName = (e: (typeof ENDPOINTS)[number]) => {
  const names = [
    ...Object.keys(e.params),
    ...(e.attributesOf ? [e.attributesOf.singular] : []),
    '_method',
    'api_token',
    'cluster_id',
  ];
  return fc.constantFrom(...names);
};
const attributeName = (e: (typeof ENDPOINTS)[number]) =>
  fc.constantFrom(...(e.attributesOf ? Object.keys(e.attributesOf.attributes) : ['name']), 'uuid');

type Position = 'path' | 'query' | 'json' | 'form' | 'attribute' | 'header' | 'body';
const position = fc.constantFrom<Position>(
  'path',
  'query',
  'json',
  'form',
  'attribute',
  'attribute',
  'header',
  'body',
);

const hostileCase = endpoint.chain((e) =>
  fc.record({
    e: fc.constant(e),
    method: fc.constantFrom(...e.methods),
    where: position,
    name: paramName(e),
    attribute: attributeName(e),
    value: hostileJson,
    text: hostileText,
    target: fc.oneof(
      fc.constantFrom('0', '1', '2', 'x%ED%A0%80', 'x%00', 'x%C3%28', 'x%FF'),
      hostileText.map((t) => `x${t}`),
    ),
  }),
);

type HostileCase = typeof hostileCase extends fc.Arbitrary<infer T> ? T : never;

function expectShape(res: { status: number; body: any; text: string }) {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) {
    expect(Object.keys(res.body ?? {}).sort()).toEqual(['error_token', 'errors']);
    expect(res.body.error_token).toMatch(ERROR_TOKEN);
    expect(res.body.errors.length).toBeGreaterThan(0);
  }
}

/** One case as a request: method, path and options. */
function requestOf(c: HostileCase): [string, string, Record<string, any>] {
  const uuid = /^[012]$/.test(c.target)
    ? existing[Number(c.target)]!
    : percentEncoded(c.target).slice(0, 2000);
  const path = `/svc/v1/${c.e.path.replace('{uuid}', uuid)}`;
  const opts: Record<string, any> = {};
  switch (c.where) {
    case 'path':
      break;
    case 'query':
      opts['query'] = { [c.name]: c.text.slice(0, 6000) };
      break;
    case 'json':
      opts['raw'] = { body: `{"${c.name}":${c.value}}`, contentType: 'application/json' };
      break;
    case 'form':
      opts['form'] = { [c.name]: c.text };
      break;
    case 'attribute':
      opts['raw'] = {
        body: `{"${c.e.attributesOf?.singular ?? 'x'}":{"${c.attribute}":${c.value}}}`,
        contentType: 'application/json',
      };
      break;
    case 'header':
      opts['headers'] = {
        'X-Request-Id': c.text.replace(/[^\x20-\x7e]/g, '?').slice(0, 2000) || 'x',
        'X-Http-Method-Override': c.text.replace(/[^\x20-\x7e]/g, '?').slice(0, 100) || 'x',
      };
      break;
    case 'body':
      opts['raw'] = { body: c.value, contentType: 'application/json' };
      break;
  }
  return [c.method, path, opts];
}

describe('hostile requests over every endpoint and position', () => {
  it(
    `answer 2xx or a 4xx in the error shape, never 5xx (${CASES} cases)`,
    async () => {
      await fc.assert(
        // A batch at a time, sent together: more cases per second, and concurrency of its own.
        fc.asyncProperty(
          fc.array(hostileCase, { minLength: BATCH, maxLength: BATCH }),
          async (cs) => {
            const answers = await Promise.all(cs.map((c) => root().request(...requestOf(c))));
            for (const res of answers) expectShape(res);
          },
        ),
        { numRuns: Math.ceil(CASES / BATCH) },
      );
      const alive = await root().request('GET', '/svc/v1/users/current');
      expect(alive.status).toBe(200);
    },
    TIME_LIMIT_MS,
  );
});

describe('hostile raw requests', () => {
  const rawCase = fc.record({
    urlLength: fc.integer({ min: 1, max: 80_000 }),
    headerLength: fc.integer({ min: 0, max: 40_000 }),
    expectContinue: fc.boolean(),
    body: hostileJson.map((j) => `{"group":{"properties":{"k":${j}}}}`),
  });

  it(`answer HTTP with a JSON body, never a reset or an empty answer (${RAW_RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(rawCase, async (c) => {
        const length = Buffer.byteLength(c.body);
        const head =
          `POST /svc/v1/groups?x=${'a'.repeat(c.urlLength)} HTTP/1.1\r\nHost: localhost\r\n` +
          `Authorization: Bearer ${d.current.home.rootToken}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${length}\r\n` +
          (c.headerLength ? `X-Pad: ${'p'.repeat(c.headerLength)}\r\n` : '') +
          (c.expectContinue ? 'Expect: 100-continue\r\n' : '') +
          'Connection: close\r\n\r\n';
        const out = await rawExchange(d.current.url, [head, c.body], 10_000);
        const final = out.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
        const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(final)?.[1]);
        expect(status).toBeGreaterThanOrEqual(200);
        expect(status).toBeLessThan(500);
        const body = JSON.parse(final.slice(final.indexOf('\r\n\r\n') + 4));
        if (status >= 400) expect(body.error_token).toMatch(ERROR_TOKEN);
      }),
      { numRuns: RAW_RUNS },
    );
    expect((await root().request('GET', '/svc/v1/users/current')).status).toBe(200);
  }, 600_000);
});

describe('the logs of the run', () => {
  it('hold no error line and no token', () => {
    const errors = lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
    expect(lines.filter((l) => l.includes(d.current.home.rootToken))).toEqual([]);
  });
});
