import {
  apiClientAuthorizations,
  collections,
  containerRequests,
  groups,
  links,
  users,
  type ResourceSpec,
} from '@svc/contract';
import { toQuery } from '../sql';
import { compileFilters } from '.';

/** The compiled condition of one filter, as {text, values}. */
const q = (r: ResourceSpec, filter: unknown) => toQuery(compileFilters(r, [filter], undefined)!);

type Case = [string, ResourceSpec, unknown, string, unknown[]];

describe('whole-attribute operators', () => {
  const cases: Case[] = [
    ['= string', collections, ['name', '=', 'x'], '"name" = $1::text', ['x']],
    ['= number on a string', collections, ['name', '=', 5.5], '"name" = $1::text', ['5.5']],
    ['= null', collections, ['name', '=', null], '"name" IS NULL', []],
    ['!= string', collections, ['name', '!=', 'x'], '"name" IS DISTINCT FROM $1::text', ['x']],
    ['<> string', collections, ['name', '<>', 'x'], '"name" IS DISTINCT FROM $1::text', ['x']],
    ['!= null', collections, ['name', '!=', null], '"name" IS NOT NULL', []],
    ['<> null', collections, ['name', '<>', null], '"name" IS NOT NULL', []],
    ['operator case', collections, ['name', 'LiKe', 'a%'], '"name" LIKE $1::text', ['a%']],
    [
      '= integer',
      collections,
      ['replication_desired', '=', 2],
      '"replication_desired" = $1::text::bigint',
      ['2'],
    ],
    [
      '= numeric string',
      collections,
      ['version', '=', '-0042'],
      '"version" = $1::text::bigint',
      ['-42'],
    ],
    [
      'int64 max',
      collections,
      ['version', '<', '9223372036854775807'],
      '"version" < $1::text::bigint',
      ['9223372036854775807'],
    ],
    [
      'int64 min',
      collections,
      ['version', '>', '-9223372036854775808'],
      '"version" > $1::text::bigint',
      ['-9223372036854775808'],
    ],
    [
      '= float',
      containerRequests,
      ['cumulative_cost', '=', '1.5e3'],
      '"cumulative_cost" = $1::text::float8',
      ['1500'],
    ],
    [
      '<= float',
      containerRequests,
      ['cumulative_cost', '<=', 0.25],
      '"cumulative_cost" <= $1::text::float8',
      ['0.25'],
    ],
    ['< string', collections, ['name', '<', 'm'], '"name" < $1::text', ['m']],
    [
      '>= datetime',
      collections,
      ['modified_at', '>=', '2024-05-01T12:00:00.123456000Z'],
      '"modified_at" >= $1::text::timestamptz',
      ['2024-05-01T12:00:00.123456Z'],
    ],
    [
      '= datetime, offset',
      collections,
      ['created_at', '=', '2024-05-01T14:00:00+02:00'],
      '"created_at" = $1::text::timestamptz',
      ['2024-05-01T12:00:00.000000Z'],
    ],
    [
      '> datetime, date only',
      collections,
      ['trash_at', '>', '2024-05-01'],
      '"trash_at" > $1::text::timestamptz',
      ['2024-05-01T00:00:00.000000Z'],
    ],
    [
      '= boolean true',
      collections,
      ['preserve_version', '=', true],
      '"preserve_version" = $1::text::boolean',
      ['true'],
    ],
    [
      '= boolean "Yes"',
      collections,
      ['preserve_version', '=', 'Yes'],
      '"preserve_version" = $1::text::boolean',
      ['true'],
    ],
    [
      '= boolean "F"',
      collections,
      ['preserve_version', '=', 'F'],
      '"preserve_version" = $1::text::boolean',
      ['false'],
    ],
    ['= boolean "0"', users, ['is_admin', '=', '0'], '"is_admin" = $1::text::boolean', ['false']],
    [
      '!= boolean "n"',
      users,
      ['is_active', '!=', 'n'],
      '"is_active" IS DISTINCT FROM $1::text::boolean',
      ['false'],
    ],
    [
      '= computed boolean',
      collections,
      ['is_trashed', '=', 'true'],
      '((trash_at IS NOT NULL AND trash_at <= statement_timestamp())) = $1::text::boolean',
      ['true'],
    ],
    [
      'computed string collates',
      users,
      ['full_name', '>', 'a'],
      `(btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) COLLATE "C" > $1::text`,
      ['a'],
    ],
    ['like', collections, ['name', 'like', 'a_%'], '"name" LIKE $1::text', ['a_%']],
    [
      'ilike',
      collections,
      ['description', 'ilike', '%X%'],
      '"description" ILIKE $1::text',
      ['%X%'],
    ],
    [
      'like, trailing lone backslash',
      collections,
      ['name', 'like', 'a\\'],
      '"name" LIKE $1::text',
      ['a\\\\'],
    ],
    [
      'like, escaped backslash kept',
      collections,
      ['name', 'like', 'a\\\\'],
      '"name" LIKE $1::text',
      ['a\\\\'],
    ],
    ['in', collections, ['name', 'in', ['a', 2]], '"name" = ANY($1::text[])', [['a', '2']]],
    [
      'in with null',
      collections,
      ['name', 'in', ['a', null]],
      '("name" = ANY($1::text[]) OR "name" IS NULL)',
      [['a']],
    ],
    ['in only null', collections, ['name', 'in', [null]], '"name" IS NULL', []],
    ['in []', collections, ['name', 'in', []], 'FALSE', []],
    [
      'not in',
      collections,
      ['name', 'not in', ['a']],
      '("name" IS NULL OR "name" <> ALL($1::text[]))',
      [['a']],
    ],
    [
      'not in with null',
      collections,
      ['name', 'not in', ['a', null]],
      '("name" IS NOT NULL AND "name" <> ALL($1::text[]))',
      [['a']],
    ],
    ['not in only null', collections, ['name', 'not in', [null]], '"name" IS NOT NULL', []],
    ['not in []', collections, ['name', 'not in', []], 'TRUE', []],
    [
      'in integers',
      collections,
      ['version', 'in', [1, '2']],
      '"version" = ANY($1::text[]::bigint[])',
      [['1', '2']],
    ],
    [
      'in datetimes',
      collections,
      ['trash_at', 'in', ['2024-01-01T00:00:00Z']],
      '"trash_at" = ANY($1::text[]::timestamptz[])',
      [['2024-01-01T00:00:00.000000Z']],
    ],
    [
      '= hash (object)',
      collections,
      ['properties', '=', { b: 1, a: [2] }],
      '"properties" = $1::text::jsonb',
      ['{"b":1,"a":[2]}'],
    ],
    [
      '= hash (JSON text)',
      collections,
      ['properties', '=', '{"a": 1}'],
      '"properties" = $1::text::jsonb',
      ['{"a":1}'],
    ],
    [
      '!= array',
      collections,
      ['storage_classes_desired', '!=', ['a', 'b']],
      '"storage_classes_desired" IS DISTINCT FROM $1::text::jsonb',
      ['["a","b"]'],
    ],
    ['= array null', containerRequests, ['command', '=', null], '"command" IS NULL', []],
    [
      '= scopes ignores element order',
      apiClientAuthorizations,
      ['scopes', '=', ['b', 'a']],
      '("scopes" IS NOT NULL AND (SELECT jsonb_agg(x ORDER BY x) FROM jsonb_array_elements("scopes") AS x) IS NOT DISTINCT FROM (SELECT jsonb_agg(x ORDER BY x) FROM jsonb_array_elements($1::text::jsonb) AS x))',
      ['["b","a"]'],
    ],
    [
      '!= scopes ignores element order',
      apiClientAuthorizations,
      ['scopes', '!=', '["all"]'],
      '("scopes" IS NULL OR (SELECT jsonb_agg(x ORDER BY x) FROM jsonb_array_elements("scopes") AS x) IS DISTINCT FROM (SELECT jsonb_agg(x ORDER BY x) FROM jsonb_array_elements($1::text::jsonb) AS x))',
      ['["all"]'],
    ],
    [
      'exists on a hash',
      collections,
      ['properties', 'exists', 'prop1'],
      '"properties" ? $1::text',
      ['prop1'],
    ],
    [
      'exists on an array',
      collections,
      ['storage_classes_desired', 'exists', 'baz'],
      '"storage_classes_desired" ? $1::text',
      ['baz'],
    ],
    [
      'contains a string',
      collections,
      ['storage_classes_desired', 'contains', 'foo'],
      '"storage_classes_desired" ?| $1::text[]',
      [['foo']],
    ],
    [
      'contains strings',
      collections,
      ['properties', 'contains', ['a', 'b']],
      '"properties" ?| $1::text[]',
      [['a', 'b']],
    ],
  ];
  it.each(cases)('%s', (_name, r, filter, text, values) => {
    expect(q(r, filter)).toEqual({ text, values });
  });
});

describe('is_a', () => {
  const cases: Case[] = [
    ['on uuid, own kind', collections, ['uuid', 'is_a', 'svc#collection'], 'TRUE', []],
    ['on uuid, other kind', collections, ['uuid', 'is_a', ['svc#group']], 'FALSE', []],
    [
      'on uuid, own kind in a list',
      groups,
      ['uuid', 'is_a', ['svc#collection', 'svc#group']],
      'TRUE',
      [],
    ],
    ['unknown kind', links, ['head_uuid', 'is_a', 'svc#bogus'], 'FALSE', []],
    ['empty list', links, ['head_uuid', 'is_a', []], 'FALSE', []],
    [
      'one kind',
      links,
      ['head_uuid', 'is_a', 'svc#containerRequest'],
      '"head_uuid" ~ $1::text',
      ['^[0-9a-z]{5}-(xvhdp)-[0-9a-z]{15}$'],
    ],
    [
      'snake_case kind',
      links,
      ['head_uuid', 'is_a', 'svc#container_request'],
      '"head_uuid" ~ $1::text',
      ['^[0-9a-z]{5}-(xvhdp)-[0-9a-z]{15}$'],
    ],
    [
      'several kinds',
      links,
      ['tail_uuid', 'is_a', ['svc#user', 'svc#group', 'svc#bogus', 'svc#user']],
      '"tail_uuid" ~ $1::text',
      ['^[0-9a-z]{5}-(tpzed|j7d0g)-[0-9a-z]{15}$'],
    ],
  ];
  it.each(cases)('%s', (_name, r, filter, text, values) => {
    expect(q(r, filter)).toEqual({ text, values });
  });
});
