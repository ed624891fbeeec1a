/**
 * Property: for random collections and random valid filters, the rows PostgreSQL returns for the
 * compiled SQL are exactly the rows a small in-memory evaluator of lists-and-filters.md §7–§13
 * selects. Runs on a throwaway database migrated like a real one.
 */
import fc from 'fast-check';
import pg from 'pg';
import { collections, parseTimestampInput, resourceByType } from '@svc/contract';
import { migrate, openDatabase } from '@svc/core';
import { randomAlnum } from '@svc/ids';
import { compileFilters, toQuery } from '@svc/list-engine';
import { DEFAULT_PG_URL, ENV, reachable, withDatabase } from '../harness/database-target';

type Arb<T> = fc.Arbitrary<T>;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Row {
  uuid: string;
  owner_uuid: string;
  modified_by_user_uuid: string | null;
  modified_at: string;
  name: string | null;
  description: string | null;
  properties: Record<string, Json>;
  manifest_text: string;
  portable_data_hash: string;
  replication_desired: bigint | null;
  replication_confirmed: bigint | null;
  version: bigint;
  storage_classes_desired: string[];
  trash_at: string | null;
  preserve_version: boolean;
}

// ---------- generators ----------
const CHARS = ['a', 'b', 'A', 'B', 'é', 'É', '%', '_', '\\', ' ', '"', '\n', '😀', '\uffff'];
const str = fc.array(fc.constantFrom(...CHARS), { maxLength: 4 }).map((a) => a.join(''));
const pattern = fc
  .array(fc.constantFrom('a', 'A', 'b', 'é', 'É', '%', '%', '_', '\\', '😀', '"'), { maxLength: 5 })
  .map((a) => a.join(''));
const TIMES = [
  '2001-02-03T04:05:06.000001Z',
  '2001-02-03T04:05:06.000002Z',
  '2001-02-03T04:05:06.100000Z',
  '2024-05-01T12:00:00.123456Z',
  '2101-01-01T00:00:00.000000Z',
];
const time = fc.constantFrom(...TIMES);
/** The same instant in another accepted form: rendered (9 digits) or with a +01:00 offset. */
const timeOperand = fc.tuple(time, fc.integer({ min: 0, max: 2 })).map(([t, form]) => {
  if (form === 0) return t;
  if (form === 1) return `${t.slice(0, 26)}000Z`;
  const shifted = new Date(Date.parse(t) + 3_600_000).toISOString().slice(0, 19);
  return `${shifted}.${t.slice(20, 26)}+01:00`;
});
const INT_EDGES = [2n ** 63n - 1n, -(2n ** 63n)];
const int = fc.oneof(fc.integer({ min: -3, max: 3 }).map(BigInt), fc.constantFrom(...INT_EDGES));
const intOperand = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.integer({ min: -3, max: 3 }).map(String),
  fc.constantFrom(...INT_EDGES.map(String)),
);
const OWNERS = [
  'zzzzz-tpzed-000000000000001',
  'zzzzz-j7d0g-000000000000002',
  'xxxxx-j7d0g-aaaaaaaaaaaaaaa',
  'zzzzz-xvhdp-000000000000003',
  'zzzzz-j7d0g-short',
  'Zzzzz-j7d0g-000000000000002',
];
const KEYS = ['a', 'b', 'a.b', 'http://x/y'];
const scalar: Arb<string | number | boolean> = fc.oneof(
  fc.constantFrom('a', 'b', 'A', 'é', '10', '2', 'value1'),
  fc.constantFrom(-1, 2, 2.5, 10),
  fc.boolean(),
);
const propValue: Arb<Json> = fc.oneof(
  scalar,
  fc.constant(null),
  fc.array(fc.constantFrom('a', 'b', 2), { maxLength: 2 }),
);
const props = fc.dictionary(fc.constantFrom(...KEYS), propValue, { maxKeys: 3 });
const classes = fc.array(fc.constantFrom('a', 'b', 'default'), { maxLength: 2 });

const row = (i: number): Arb<Row> =>
  fc.record({
    uuid: fc.constant(`zzzzz-4zz18-${String(i).padStart(15, '0')}`),
    owner_uuid: fc.constantFrom(...OWNERS),
    modified_by_user_uuid: fc.option(fc.constantFrom(...OWNERS)),
    modified_at: time,
    name: fc.option(str),
    description: fc.option(str),
    properties: props,
    manifest_text: str,
    portable_data_hash: str,
    replication_desired: fc.option(int),
    replication_confirmed: fc.option(int),
    version: int,
    storage_classes_desired: classes,
    trash_at: fc.option(time),
    preserve_version: fc.boolean(),
  });
const rows = fc
  .integer({ min: 0, max: 10 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => row(i))));

const op = <T extends string>(...ops: T[]) => fc.constantFrom(...ops);
const EQ = op('=', '!=', '<>');
const ORD = op('<', '<=', '>', '>=');
const withNulls = <T>(a: Arb<T>) => fc.array(fc.option(a, { freq: 4 }), { maxLength: 3 });
const cond = (attrs: Arb<string>, ops: Arb<string>, operand: Arb<unknown>) =>
  fc.tuple(attrs, ops, operand);

const STRING_ATTRS = fc.constantFrom(
  'name',
  'description',
  'owner_uuid',
  'portable_data_hash',
  'current_version_uuid',
  'unsigned_manifest_text',
);
const INT_ATTRS = fc.constantFrom('replication_desired', 'replication_confirmed', 'version');
const TIME_ATTRS = fc.constantFrom('modified_at', 'trash_at');
const subAttr = fc
  .tuple(fc.constantFrom(...KEYS), fc.boolean())
  .map(([k, bracket]) => (bracket ? `properties.<${k}>` : `properties.${k}`));
const filter: Arb<unknown> = fc.oneof(
  cond(STRING_ATTRS, EQ, fc.option(fc.oneof(str, fc.integer({ min: 0, max: 3 })))),
  cond(STRING_ATTRS, ORD, str),
  cond(STRING_ATTRS, op('like', 'ilike', 'LIKE'), pattern),
  cond(STRING_ATTRS, op('in', 'not in'), withNulls(str)),
  cond(INT_ATTRS, EQ, fc.option(intOperand)),
  cond(INT_ATTRS, ORD, intOperand),
  cond(INT_ATTRS, op('in', 'not in'), withNulls(intOperand)),
  cond(TIME_ATTRS, fc.oneof(EQ, ORD), timeOperand),
  cond(TIME_ATTRS, op('in', 'not in'), withNulls(timeOperand)),
  cond(
    fc.constantFrom('preserve_version', 'is_trashed'),
    EQ,
    fc.constantFrom(true, false, 'true', 'F', '1', '0', 'yes', 'N', null),
  ),
  cond(
    fc.constant('properties'),
    EQ,
    fc.oneof(
      props,
      props.map((p) => JSON.stringify(p)),
    ),
  ),
  cond(
    fc.constant('storage_classes_desired'),
    EQ,
    fc.oneof(
      classes,
      classes.map((c) => JSON.stringify(c)),
    ),
  ),
  cond(
    fc.constantFrom('properties', 'storage_classes_desired'),
    op('exists'),
    fc.constantFrom(...KEYS, 'default'),
  ),
  cond(
    fc.constantFrom('properties', 'storage_classes_desired'),
    op('contains'),
    fc.oneof(
      fc.constantFrom('a', 'b', 'default'),
      fc.subarray(['a', 'b.a', 'default', 'http://x/y'], { minLength: 1 }),
    ),
  ),
  cond(subAttr, EQ, scalar),
  cond(
    subAttr,
    op('contains'),
    scalar.filter((x) => typeof x !== 'boolean'),
  ),
  cond(
    subAttr,
    ORD,
    fc.oneof(fc.constantFrom('a', 'b', '10', 'é'), fc.constantFrom(-1, 2, 2.5, 10)),
  ),
  cond(subAttr, op('like', 'ilike'), pattern),
  cond(
    subAttr,
    op('in', 'not in'),
    fc.array(fc.oneof(fc.constantFrom('a', 'b', '2'), fc.constantFrom(2, 10)), { maxLength: 3 }),
  ),
  cond(subAttr, op('exists'), fc.boolean()),
  cond(
    fc.constantFrom('owner_uuid', 'modified_by_user_uuid', 'uuid'),
    op('is_a'),
    fc.oneof(
      fc.constantFrom('svc#group', 'svc#collection'),
      fc.subarray([
        'svc#group',
        'svc#user',
        'svc#container_request',
        'svc#collection',
        'svc#bogus',
      ]),
    ),
  ),
  cond(
    fc.constant('any'),
    op('like', 'ilike'),
    str.map((s) => `%${s}%`),
  ),
  cond(
    fc.constant('any'),
    fc.oneof(EQ, op('in')),
    fc.oneof(str, fc.constantFrom(...OWNERS), withNulls(str)),
  ).filter(([, o, x]) => (o === 'in') === Array.isArray(x)),
  fc
    .tuple(INT_ATTRS, fc.constantFrom('<', '<=', '=', '>=', '>'), INT_ATTRS)
    .map(([a, o, b]) => `(${a} ${o} ${b})`),
);

// ---------- the evaluator ----------
const cmpText = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b)); // code points
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
function like(value: string, p: string, fold: boolean): boolean {
  const chars = Array.from(fold ? asciiLower(p) : p);
  let re = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const literal = c === '\\' ? (chars[++i] ?? '\\') : null;
    if (literal !== null) re += literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    else re += c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'su').test(fold ? asciiLower(value) : value);
}
function cmp(o: string, d: number): boolean {
  return o === '<'
    ? d < 0
    : o === '<='
      ? d <= 0
      : o === '>'
        ? d > 0
        : o === '>='
          ? d >= 0
          : d === 0;
}
/** jsonb's text output: keys by length then bytes, ", " and ": " separators. */
function jsonbText(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort(
      (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || cmpText(a, b),
    );
    return `{${keys.map((k) => `${jsonbText(k)}: ${jsonbText(v[k]!)}`).join(', ')}}`;
  }
  if (typeof v === 'string') {
    const esc: Record<string, string> = {
      '"': '\\"',
      '\\': '\\\\',
      '\b': '\\b',
      '\f': '\\f',
      '\n': '\\n',
      '\r': '\\r',
      '\t': '\\t',
    };
    // eslint-disable-next-line no-control-regex -- jsonb escapes exactly these control characters
    return `"${v.replace(/["\\\u0000-\u001f]/g, (c) => esc[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
  }
  return JSON.stringify(v);
}
function jsonEqual(a: Json, b: Json): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => jsonEqual(x, b[i]!))
    );
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k]!, b[k]!))
    );
  }
  return a === b;
}
const fromJsonText = (x: unknown): Json => (typeof x === 'string' ? JSON.parse(x) : x) as Json;

type Value = string | bigint | boolean | null;
function attr(r: Row, name: string): Value {
  if (name === 'current_version_uuid') return r.uuid;
  if (name === 'unsigned_manifest_text') return r.manifest_text;
  if (name === 'is_trashed') return r.trash_at !== null && r.trash_at <= new Date().toISOString();
  return (r as unknown as Record<string, Value>)[name] ?? null;
}
function operandValue(name: string, x: unknown): Value {
  if (x === null) return null;
  if (INT_NAMES.has(name)) return BigInt(x as string | number);
  if (name === 'modified_at' || name === 'trash_at') return parseTimestampInput(x as string);
  if (name === 'preserve_version' || name === 'is_trashed')
    return /^(true|t|1|yes|y)$/i.test(String(x));
  return String(x);
}
const INT_NAMES = new Set(['replication_desired', 'replication_confirmed', 'version']);
const compare = (a: Value, b: Value): number =>
  typeof a === 'bigint'
    ? a < (b as bigint)
      ? -1
      : a > (b as bigint)
        ? 1
        : 0
    : cmpText(String(a), String(b));

function scalarMatch(v: Value, o: string, name: string, x: unknown): boolean {
  if (o === 'in' || o === 'not in') {
    const list = x as unknown[];
    const hit = list.some((e) =>
      e === null ? v === null : v !== null && compare(v, operandValue(name, e)) === 0,
    );
    return o === 'in' ? hit : !hit;
  }
  if (o === 'like' || o === 'ilike')
    return v !== null && like(String(v), x as string, o === 'ilike');
  const w = operandValue(name, x);
  if (o === '=') return w === null ? v === null : v !== null && compare(v, w) === 0;
  if (o === '!=' || o === '<>') return w === null ? v !== null : v === null || compare(v, w) !== 0;
  return v !== null && cmp(o, compare(v, w));
}
const sameScalar = (v: Json | undefined, x: unknown) =>
  v !== undefined && typeof v === typeof x && v === x;
function subMatch(p: Record<string, Json>, key: string, o: string, x: unknown): boolean {
  const v = Object.hasOwn(p, key) ? p[key] : undefined;
  switch (o) {
    case '=':
      return sameScalar(v, x);
    case '!=':
    case '<>':
      return !sameScalar(v, x);
    case 'in':
      return (x as unknown[]).some((e) => sameScalar(v, e));
    case 'not in':
      return !(x as unknown[]).some((e) => sameScalar(v, e));
    case 'exists':
      return (v !== undefined) === x;
    case 'contains':
      return sameScalar(v, x) || (Array.isArray(v) && v.some((e) => sameScalar(e, x)));
    case 'like':
    case 'ilike':
      return (
        (typeof v === 'string' || typeof v === 'number') &&
        like(String(v), x as string, o === 'ilike')
      );
    default:
      return (
        typeof v === typeof x &&
        (typeof v === 'string'
          ? cmp(o, cmpText(v, x as string))
          : cmp(o, (v as number) - (x as number)))
      );
  }
}
const KINDS: Record<string, string> = {
  'svc#group': 'j7d0g',
  'svc#user': 'tpzed',
  'svc#container_request': 'xvhdp',
  'svc#collection': '4zz18',
};
const STRING_COLUMNS = [
  'uuid',
  'owner_uuid',
  'modified_by_user_uuid',
  'name',
  'description',
  'manifest_text',
  'unsigned_manifest_text',
  'portable_data_hash',
  'current_version_uuid',
];

function matches(r: Row, f: unknown): boolean {
  if (typeof f === 'string') {
    const [, a, o, b] = /^\((\w+) (\S+) (\w+)\)$/.exec(f)!;
    const [va, vb] = [attr(r, a!), attr(r, b!)];
    return va !== null && vb !== null && cmp(o!, compare(va, vb));
  }
  const [name, rawOp, x] = f as [string, string, unknown];
  const o = rawOp.toLowerCase();
  if (name.startsWith('properties.')) {
    const rest = name.slice('properties.'.length);
    return subMatch(r.properties, rest.startsWith('<') ? rest.slice(1, -1) : rest, o, x);
  }
  if (name === 'any' && (o === 'like' || o === 'ilike')) {
    const texts = [
      r.name,
      r.description,
      jsonbText(r.properties),
      jsonbText(r.storage_classes_desired),
      jsonbText([]),
    ];
    return texts.some((t) => t !== null && like(t, x as string, o === 'ilike'));
  }
  if (name === 'any') return STRING_COLUMNS.some((c) => scalarMatch(attr(r, c), o, c, x));
  if (o === 'is_a') {
    const kinds = (Array.isArray(x) ? x : [x]) as string[];
    if (name === 'uuid') return kinds.includes('svc#collection');
    const v = attr(r, name) as string | null;
    return (
      v !== null &&
      kinds.some((k) => KINDS[k] && new RegExp(`^[0-9a-z]{5}-${KINDS[k]}-[0-9a-z]{15}$`).test(v))
    );
  }
  if (name === 'properties' || name === 'storage_classes_desired') {
    const v = (name === 'properties' ? r.properties : r.storage_classes_desired) as Json;
    const has = (s: string) => (Array.isArray(v) ? v.includes(s) : Object.hasOwn(v as object, s));
    if (o === 'exists') return has(x as string);
    if (o === 'contains') return (Array.isArray(x) ? (x as string[]) : [x as string]).some(has);
    return (o === '=') === jsonEqual(v, fromJsonText(x));
  }
  return scalarMatch(attr(r, name), o, name, x);
}

// ---------- the database ----------
const admin = process.env[ENV.adminUrl] ?? DEFAULT_PG_URL;
const dbName = `svc_filters_prop_${randomAlnum(8)}`;
let client: pg.Client | null = null;

beforeAll(async () => {
  if (!(await reachable(admin))) return;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE ${dbName}`);
  await adminClient.end();
  const { db } = await openDatabase(withDatabase(admin, dbName));
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  client = new pg.Client({
    connectionString: withDatabase(admin, dbName),
    options: '-c TimeZone=UTC',
  });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  if (!(await reachable(admin))) return;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await adminClient.end();
}, 60_000);

async function insert(c: pg.Client, r: Row): Promise<void> {
  await c.query(
    `INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, description,
       properties, manifest_text, portable_data_hash, replication_desired, replication_confirmed, version,
       storage_classes_desired, trash_at, preserve_version)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7::text::jsonb, $8, $9, $10, $11, $12, $13::text::jsonb, $14, $15)`,
    [
      r.uuid,
      r.owner_uuid,
      r.modified_at,
      r.modified_by_user_uuid,
      r.name,
      r.description,
      JSON.stringify(r.properties),
      r.manifest_text,
      r.portable_data_hash,
      r.replication_desired?.toString() ?? null,
      r.replication_confirmed?.toString() ?? null,
      r.version.toString(),
      JSON.stringify(r.storage_classes_desired),
      r.trash_at,
      r.preserve_version,
    ],
  );
}

it('returns exactly the rows the evaluator selects', async () => {
  if (!client) {
    console.warn('filters-property: no PostgreSQL reachable, skipped'); // eslint-disable-line no-console
    return;
  }
  const c = client;
  const runs = Number(process.env['FILTERS_PROPERTY_RUNS'] ?? 300);
  let selective = 0; // filter sets that kept some rows and dropped others: the test is not vacuous
  await fc.assert(
    fc.asyncProperty(
      rows,
      fc.array(fc.array(filter, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      async (records, filterSets) => {
        await c.query('BEGIN');
        try {
          await c.query('DELETE FROM collections');
          for (const r of records) await insert(c, r);
          for (const filters of filterSets) {
            const where = toQuery(compileFilters(collections, filters, undefined)!);
            const { rows: got } = await c.query(
              `SELECT uuid FROM collections WHERE ${where.text} ORDER BY uuid`,
              where.values,
            );
            const expected = records
              .filter((r) => filters.every((f) => matches(r, f)))
              .map((r) => r.uuid);
            expect({ filters, uuids: got.map((g: { uuid: string }) => g.uuid) }).toEqual({
              filters,
              uuids: expected,
            });
            if (expected.length > 0 && expected.length < records.length) selective++;
          }
        } finally {
          await c.query('ROLLBACK');
        }
      },
    ),
    { numRuns: runs },
  );
  expect(selective).toBeGreaterThan(runs / 4);
}, 300_000);

it.each([
  ['collections', [['any', 'ilike', '%genome%']], 'collections_search_trgm_idx'],
  ['groups', [['any', 'like', '%Genome%']], 'groups_search_trgm_idx'],
  ['collections', [['properties.a', '=', 'x']], 'collections_properties_idx'],
  ['collections', [['properties.a', 'in', ['x', 2]]], 'collections_properties_idx'],
  ['collections', [['properties.a', 'contains', 'x']], 'collections_properties_idx'],
  ['collections', [['properties.a', '>', 'x']], 'collections_properties_idx'],
  ['collections', [['properties', 'exists', 'a']], 'collections_properties_idx'],
  ['groups', [['properties', 'contains', ['a', 'b']]], 'groups_properties_idx'],
  ['container_requests', [['properties.a', 'exists', true]], 'container_requests_properties_idx'],
  ['links', [['properties.a', '=', 1]], 'links_properties_idx'],
])('%s %j can use %s', async (type, filters, index) => {
  if (!client) return;
  const r = resourceByType(type)!;
  const where = toQuery(compileFilters(r, filters, undefined)!);
  await client.query('BEGIN');
  try {
    // Empty tables: the planner would rightly prefer a sequential scan; forbid it to see the index.
    await client.query('SET LOCAL enable_seqscan = off');
    const { rows: plan } = await client.query(
      `EXPLAIN SELECT uuid FROM ${type} WHERE ${where.text}`,
      where.values,
    );
    expect(plan.map((p: Record<string, string>) => p['QUERY PLAN']).join('\n')).toContain(
      `Bitmap Index Scan on ${index}`,
    );
  } finally {
    await client.query('ROLLBACK');
  }
});
