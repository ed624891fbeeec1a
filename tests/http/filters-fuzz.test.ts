/**
 * Fuzz: malformed `filters`, `where`, `order` and `select` values (wrong types, huge, deeply
 * nested, unicode, SQL fragments) thrown at the list endpoints. Every answer must be a 422 with
 * the error body, or a consistent 200; never a 500. And nothing in the database changes.
 */
import fc from 'fast-check';
import { collections, groups, type ResourceSpec } from '@svc/contract';
import type { Answer } from '@svc/client';
import { OPERATORS } from '@svc/list-engine';
import { useDeployment } from '../harness/deployment';

type Arb<T> = fc.Arbitrary<T>;

const d = useDeployment();
const root = () => d.current.root;
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;
const RUNS = Number(process.env['FILTERS_FUZZ_RUNS'] ?? 150);

const SQL = [
  "'; DROP TABLE collections; --",
  '") OR 1=1 --',
  "' OR '1'='1",
  'name; DELETE FROM groups',
  '$1',
  '$1::text',
  '?',
  '?|',
  '\\',
  '%',
  '_',
  '*/ SELECT pg_sleep(10) /*',
  'uuid" IS NOT NULL OR "1',
  'COLLATE "C"',
];
const WEIRD = [
  '\u0000',
  '\ud800',
  '\udc00x',
  '😀',
  '\u202e',
  'é',
  '\uffff',
  ' ',
  '\t',
  '',
  'null',
  'true',
  '[]',
  '{}',
  '[',
  '{"a":',
];
const OPS = [...OPERATORS, 'LIKE', 'Not In', '@@', '==', '', ' =', 'between'];
const ATTRS = [
  'name',
  'uuid',
  'owner_uuid',
  'description',
  'properties',
  'properties.a',
  'properties.<http://x>',
  'properties.',
  'storage_classes_desired',
  'replication_desired',
  'modified_at',
  'preserve_version',
  'is_trashed',
  'group_class',
  'any',
  'kind',
  'etag',
  'manifest_text',
  'container.state',
  'collections.name',
  'writable_by',
  'can_write',
  '(replication_desired > replication_confirmed)',
  ' (a > b)',
  'bogus',
  '',
];

const weirdString: Arb<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(...SQL, ...WEIRD),
  fc
    .tuple(fc.constantFrom(...SQL, ...WEIRD), fc.constantFrom(...SQL, ...WEIRD))
    .map(([a, b]) => a + b),
);
const json: Arb<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: weirdString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      1e308,
      -0,
      2 ** 63,
      -(2 ** 64),
      0.5,
      Number('9007199254740993'),
      '9223372036854775808',
    ),
  },
);
const condition: Arb<unknown> = fc.tuple(
  fc.oneof(fc.constantFrom(...ATTRS), weirdString, json),
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...OPS) }, { weight: 1, arbitrary: json }),
  fc.oneof(
    json,
    fc.array(json, { maxLength: 4 }),
    fc.dictionary(weirdString, json, { maxKeys: 3 }),
  ),
);
const element: Arb<unknown> = fc.oneof(
  { weight: 6, arbitrary: condition },
  { weight: 1, arbitrary: json },
  { weight: 1, arbitrary: fc.array(json, { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '(replication_desired > replication_confirmed)',
      '(a > b)',
      '((x))',
      'name',
    ),
  },
);
/** Well-typed conditions with odd values: these get past validation and reach the database. */
const plausible: Arb<unknown> = fc.oneof(
  fc.tuple(
    fc.constantFrom('name', 'description', 'uuid', 'owner_uuid'),
    fc.constantFrom('=', '!=', '<', '>=', 'like', 'ilike'),
    weirdString,
  ),
  fc.tuple(
    fc.constantFrom('name', 'owner_uuid'),
    fc.constantFrom('in', 'not in'),
    fc.array(fc.option(weirdString), { maxLength: 3 }),
  ),
  fc.tuple(
    fc.constantFrom('properties.a', 'properties.<http://x>', 'properties.'),
    fc.constantFrom('=', '<>', '>', 'like', 'contains'),
    weirdString,
  ),
  fc.tuple(
    fc.constantFrom('properties', 'storage_classes_desired'),
    fc.constantFrom('exists', 'contains'),
    weirdString,
  ),
  fc.tuple(
    fc.constant('any'),
    fc.constantFrom('ilike', 'like', '='),
    weirdString.map((x) => `%${x}%`),
  ),
  fc.tuple(
    fc.constant('owner_uuid'),
    fc.constant('is_a'),
    fc.oneof(weirdString, fc.array(weirdString, { maxLength: 2 })),
  ),
);
const filters: Arb<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.array(element, { maxLength: 4 }) },
  { weight: 4, arbitrary: fc.array(plausible, { maxLength: 3 }) },
  { weight: 1, arbitrary: json },
  { weight: 1, arbitrary: fc.array(element, { maxLength: 3 }).map((a) => JSON.stringify(a)) },
);
/** Names of Object.prototype members are left to the explicit test below. */
const notPrototypeName = (s: unknown) => typeof s !== 'string' || !(s in Object.prototype);
const orderOrSelect: Arb<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(undefined, ['name'], ['uuid', 'name'], 'name desc') },
  fc.array(
    fc
      .oneof(
        fc.constantFrom(
          ...ATTRS,
          'name desc',
          'name DESC',
          'name sideways',
          'uuid asc',
          'collections.name',
        ),
        weirdString,
      )
      .filter(notPrototypeName),
    { maxLength: 3 },
  ),
  json.filter(notPrototypeName),
);
const where: Arb<unknown> = fc.oneof(
  fc.dictionary(fc.constantFrom(...ATTRS, 'any').filter(notPrototypeName), json, { maxKeys: 3 }),
  fc.constant({ any: ['contains', "'; DROP TABLE groups; --"] }),
  json,
);
const request = fc.record(
  {
    filters,
    where,
    order: orderOrSelect,
    select: orderOrSelect,
    limit: fc.constantFrom(0, 1, 5, 1000),
  },
  { requiredKeys: ['filters'] },
);

/** A 422 with the contract's error body, or a 200 whose numbers add up. Nothing else. */
function checkAnswer(r: ResourceSpec, res: Answer<any>, limit: number): void {
  answered++;
  if (res.status === 422) {
    expect(res.body).toEqual({
      errors: expect.any(Array),
      error_token: expect.stringMatching(ERROR_TOKEN),
    });
    expect(res.body.errors.length).toBeGreaterThan(0);
    for (const e of res.body.errors) expect(typeof e).toBe('string');
    return;
  }
  expect([res.status, res.text.slice(0, 500)]).toEqual([200, expect.any(String)]);
  succeeded++;
  expect(res.body.kind).toBe(`${r.kind}List`);
  expect(res.body.items.length).toBeLessThanOrEqual(limit);
  if (res.body.items_available !== undefined) {
    expect(res.body.items.length).toBe(Math.min(limit, res.body.items_available));
  }
}

/** Every object's uuid and etag, trash included: changes if anything was written. */
async function snapshot(): Promise<string> {
  const out: unknown[] = [];
  for (const r of [collections, groups]) {
    const res = await root()
      .resource(r)
      .list({
        select: ['uuid', 'etag', 'modified_at'],
        include_trash: true,
        limit: 1000,
        order: ['uuid'],
      });
    expect(res.status).toBe(200);
    out.push(res.body.items_available, res.body.items);
  }
  return JSON.stringify(out);
}

let before: string;
let answered = 0;
let succeeded = 0;
beforeAll(async () => {
  const project = await root()
    .resource(groups)
    .create({ name: 'fuzz', group_class: 'project', properties: { a: 1 } });
  for (const name of ['one', "O'Brien", '😀', null]) {
    const res = await root()
      .resource(collections)
      .create({ name, owner_uuid: project.body.uuid, properties: { a: name } });
    expect(res.status).toBe(200);
  }
  before = await snapshot();
}, 60_000);

describe.each([collections, groups].map((r) => [r.type, r] as const))(
  'GET /svc/v1/%s',
  (_type, r) => {
    const path = `/svc/v1/${r.type}`;

    it('answers random malformed list parameters in the query string with 422 or 200', async () => {
      await fc.assert(
        fc.asyncProperty(request, async (query) => {
          const res = await root().request('GET', path, { query });
          checkAnswer(r, res, Math.min(Number(query.limit ?? 100), 1000));
        }),
        { numRuns: RUNS },
      );
    }, 120_000);

    it('answers the same in a JSON body (POST with _method=GET), lone surrogates included', async () => {
      await fc.assert(
        fc.asyncProperty(request, async (params) => {
          const res = await root().request('POST', path, { json: { ...params, _method: 'GET' } });
          checkAnswer(r, res, Math.min(Number(params.limit ?? 100), 1000));
        }),
        { numRuns: RUNS },
      );
    }, 120_000);

    it.each([
      ['deeply nested operand', `[["properties","=",${'['.repeat(50_000)}1${']'.repeat(50_000)}]]`],
      [
        'deeply nested hash operand',
        `[["properties","=",${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}]]`,
      ],
      ['deeply nested element', `[${'['.repeat(50_000)}${']'.repeat(50_000)}]`],
      ['huge string', JSON.stringify([['name', '=', 'x'.repeat(2_000_000)]])],
      ['huge like pattern', JSON.stringify([['any', 'ilike', `%${'%a'.repeat(100_000)}%`]])],
      [
        'huge in list',
        JSON.stringify([['name', 'in', Array.from({ length: 100_000 }, (_, i) => `n${i}`)]]),
      ],
      ['many conditions', JSON.stringify(Array.from({ length: 40_000 }, () => ['any', '=', 'x']))],
      [
        'many subproperty keys',
        JSON.stringify(
          Array.from({ length: 5_000 }, (_, i) => [`properties.k${i}`, 'exists', true]),
        ),
      ],
      ['huge integer', '[["replication_desired", "<", 1e400]]'],
      ['escaped NUL and lone surrogate', '[["name", "=", "a\\u0000"], ["name", "=", "\\ud800"]]'],
    ])(
      'answers a %s with 422 or 200',
      async (_name, filtersJson) => {
        const body = `{"_method":"GET","limit":5,"filters":${filtersJson}}`;
        const res = await root().request('POST', path, {
          raw: { body, contentType: 'application/json' },
        });
        checkAnswer(r, res, 5);
      },
      60_000,
    );
  },
);

describe('names of Object.prototype members', () => {
  // Not attributes of any resource: the same 422 as any unknown name.
  const list = (query: Record<string, unknown>) =>
    root().request('GET', '/svc/v1/collections', { query });
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    '%s is no attribute',
    async (name) => {
      const f = await list({ filters: [[name, '=', 'x']] });
      expect([f.status, f.body.errors]).toEqual([422, [`Invalid attribute '${name}' in filter`]]);
      const o = await list({ order: [name] });
      expect([o.status, o.body.errors]).toEqual([422, [`Invalid order attribute '${name}'`]]);
      const s = await list({ select: ['uuid', name] });
      expect([s.status, s.body.errors]).toEqual([
        422,
        [`Invalid attribute '${name}' in select parameter`],
      ]);
      const sd = await list({ select: ['uuid', name], distinct: true });
      expect(sd.status).toBe(422);
      const w = await list({ where: { [name]: 'x' }, limit: 0 });
      expect(w.status).toBe(200);
    },
  );
});

describe('afterwards', () => {
  it('the database is unchanged', async () => {
    expect(answered).toBeGreaterThan(4 * RUNS); // runs after the fuzzing
    expect(succeeded).toBeGreaterThan(RUNS / 5); // and the fuzzing reached the database
    expect(await snapshot()).toBe(before);
  });
});
