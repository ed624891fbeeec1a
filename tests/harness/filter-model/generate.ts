/**
 * Random collection rows and random valid filters (lists-and-filters.md §7–§13) for the filter
 * property test, as fast-check arbitraries. The values are few and close together (a handful
 * of characters, times a microsecond apart, integers at the bigint edges) so that filters
 * often split the rows.
 */
import fc from 'fast-check';
import type { Json, Row } from './row';

type Arb<T> = fc.Arbitrary<T>;

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
export const rows = fc
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
export const filter: Arb<unknown> = fc.oneof(
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
