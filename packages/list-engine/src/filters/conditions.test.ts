import { collections, containerRequests, users, type ResourceSpec } from '@svc/contract';
import { toQuery } from '../sql';
import { compileFilters } from '.';

/** The compiled condition of one filter, as {text, values}. */
const q = (r: ResourceSpec, filter: unknown) => toQuery(compileFilters(r, [filter], undefined)!);

type Case = [string, ResourceSpec, unknown, string, unknown[]];

describe('subproperties', () => {
  const has = (n: number) => `"properties" ? $${n}::text`;
  const cases: Case[] = [
    [
      '=',
      collections,
      ['properties.a', '=', 'x'],
      '"properties" @> $1::text::jsonb',
      ['{"a":"x"}'],
    ],
    [
      '= number',
      collections,
      ['properties.a', '=', 5],
      '"properties" @> $1::text::jsonb',
      ['{"a":5}'],
    ],
    [
      '= boolean',
      collections,
      ['properties.a', '=', false],
      '"properties" @> $1::text::jsonb',
      ['{"a":false}'],
    ],
    [
      'key after the first dot, verbatim',
      collections,
      ['properties.a.b', '=', 'x'],
      '"properties" @> $1::text::jsonb',
      ['{"a.b":"x"}'],
    ],
    [
      '<uri> key',
      collections,
      ['properties.<http://schema.org/example>', '=', 'v'],
      '"properties" @> $1::text::jsonb',
      ['{"http://schema.org/example":"v"}'],
    ],
    [
      'any hash attribute',
      users,
      ['prefs.profile', '!=', 'x'],
      'NOT coalesce("prefs" @> $1::text::jsonb, false)',
      ['{"profile":"x"}'],
    ],
    [
      '!=',
      collections,
      ['properties.a', '!=', 'x'],
      'NOT coalesce("properties" @> $1::text::jsonb, false)',
      ['{"a":"x"}'],
    ],
    [
      '<>',
      collections,
      ['properties.a', '<>', 1],
      'NOT coalesce("properties" @> $1::text::jsonb, false)',
      ['{"a":1}'],
    ],
    [
      '> string',
      collections,
      ['properties.a', '>', 'value2'],
      `(${has(1)} AND jsonb_typeof("properties" -> $2::text) = 'string' AND ("properties" ->> $3::text) COLLATE "C" > $4::text)`,
      ['a', 'a', 'a', 'value2'],
    ],
    [
      '<= number',
      collections,
      ['properties.a', '<=', 1.5],
      `(${has(1)} AND jsonb_typeof("properties" -> $2::text) = 'number' AND "properties" -> $3::text <= $4::text::jsonb)`,
      ['a', 'a', 'a', '1.5'],
    ],
    [
      'ilike',
      collections,
      ['properties.a', 'ilike', 'VALUE%'],
      `(${has(1)} AND jsonb_typeof("properties" -> $2::text) IN ('string', 'number') AND ("properties" ->> $3::text) COLLATE "C" ILIKE $4::text)`,
      ['a', 'a', 'a', 'VALUE%'],
    ],
    [
      'in',
      collections,
      ['properties.a', 'in', ['x', 2]],
      '"properties" @> ANY($1::text[]::jsonb[])',
      [['{"a":"x"}', '{"a":2}']],
    ],
    ['in []', collections, ['properties.a', 'in', []], 'FALSE', []],
    [
      'not in',
      collections,
      ['properties.a', 'not in', ['x']],
      'NOT coalesce("properties" @> ANY($1::text[]::jsonb[]), false)',
      [['{"a":"x"}']],
    ],
    ['not in []', collections, ['properties.a', 'not in', []], 'TRUE', []],
    [
      'exists true',
      collections,
      ['properties.a', 'exists', true],
      '"properties" ? $1::text',
      ['a'],
    ],
    [
      'exists false',
      collections,
      ['properties.a', 'exists', false],
      'NOT coalesce("properties" ? $1::text, false)',
      ['a'],
    ],
    [
      'contains',
      collections,
      ['properties.a', 'contains', 'x'],
      '("properties" @> $1::text::jsonb OR "properties" @> $2::text::jsonb)',
      ['{"a":"x"}', '{"a":["x"]}'],
    ],
    [
      'a __proto__ key stays a key',
      collections,
      ['properties.__proto__', '=', 'x'],
      '"properties" @> $1::text::jsonb',
      ['{"__proto__":"x"}'],
    ],
  ];
  it.each(cases)('%s', (_name, r, filter, text, values) => {
    expect(q(r, filter)).toEqual({ text, values });
  });
});

describe('container.<attr> on container requests', () => {
  it('is an EXISTS over the request container', () => {
    expect(q(containerRequests, ['container.state', '=', 'Complete'])).toEqual({
      text: 'EXISTS (SELECT 1 FROM "containers" WHERE "containers"."uuid" = "container_requests"."container_uuid" AND "state" = $1::text)',
      values: ['Complete'],
    });
  });
  it('takes any operator of the container attribute', () => {
    expect(q(containerRequests, ['container.exit_code', 'in', [0, 1]]).text).toContain(
      'AND "exit_code" = ANY($1::text[]::bigint[]))',
    );
  });
});

describe('boolean expressions', () => {
  it.each([
    [
      '(replication_desired > replication_confirmed)',
      '"replication_desired" > "replication_confirmed"',
    ],
    ['  (  file_count<=version )  ', '"file_count" <= "version"'],
    ['(version=file_size_total)', '"version" = "file_size_total"'],
  ])('%s', (expression, text) => {
    expect(q(collections, expression)).toEqual({ text, values: [] });
    expect(q(collections, [expression, '=', true])).toEqual({ text, values: [] });
    expect(q(collections, [expression, '=', 'true'])).toEqual({ text, values: [] });
  });
  it('compares integers with floats', () => {
    expect(q(containerRequests, '(cumulative_cost >= priority)').text).toBe(
      '"cumulative_cost" >= "priority"',
    );
  });
});

describe('compileFilters', () => {
  it('gives null without conditions', () => {
    expect(compileFilters(collections, undefined, undefined)).toBeNull();
    expect(compileFilters(collections, [], {})).toBeNull();
  });

  it('ANDs conditions, values numbered in order', () => {
    const sql = compileFilters(
      collections,
      [
        ['name', 'like', 'a%'],
        '(replication_desired > replication_confirmed)',
        ['version', '>', 1],
      ],
      undefined,
    )!;
    expect(toQuery(sql)).toEqual({
      text: '("name" LIKE $1::text AND "replication_desired" > "replication_confirmed" AND "version" > $2::text::bigint)',
      values: ['a%', '1'],
    });
  });

  it('never puts a client string in the SQL text', () => {
    const evil = `x'); DROP TABLE collections; --`;
    const filters = [
      ['name', '=', evil],
      ['properties.' + evil, '=', evil],
      ['any', 'ilike', `%${evil}%`],
      ['properties', 'exists', evil],
    ];
    const { text, values } = toQuery(compileFilters(collections, filters, { name: evil })!);
    expect(text).not.toContain('DROP');
    expect(values.flat().filter((v) => String(v).includes('DROP')).length).toBeGreaterThan(4);
  });
});

describe('where (legacy)', () => {
  const w = (where: Record<string, unknown>) =>
    toQuery(compileFilters(collections, undefined, where)!);
  it('reads a scalar as =, an array as in, null as IS NULL', () => {
    expect(w({ name: 'x', version: [1, 2], description: null })).toEqual({
      text: '("name" = $1::text AND "version" = ANY($2::text[]::bigint[]) AND "description" IS NULL)',
      values: ['x', ['1', '2']],
    });
  });
  it('ignores unknown attributes', () => {
    expect(
      compileFilters(collections, undefined, { bogus: 1, 'properties.a': 1, constructor: 1 }),
    ).toBeNull();
  });
  it('reads {"any": ["contains", text]} as a text search', () => {
    const { text, values } = w({ any: ['contains', 'foo'] });
    expect(text).toContain(') ILIKE $1::text AND ("name" ILIKE $2::text');
    expect(values[0]).toBe('%foo%');
  });
  it('is ANDed with filters', () => {
    expect(toQuery(compileFilters(collections, [['name', '=', 'a']], { version: 3 })!)).toEqual({
      text: '("name" = $1::text AND "version" = $2::text::bigint)',
      values: ['a', '3'],
    });
  });
});
