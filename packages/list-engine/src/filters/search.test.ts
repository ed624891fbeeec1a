import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collections, groups, logs, users, type ResourceSpec } from '@svc/contract';
import { toQuery } from '../sql';
import { compileFilters } from '.';
import { searchExpression } from './search';

const migration = readFileSync(
  join(__dirname, '../../../../prisma/migrations/20261123010000_filter_indexes/migration.sql'),
  'utf8',
);
const q = (filter: unknown, r: ResourceSpec = groups) =>
  toQuery(compileFilters(r, [filter], undefined)!);

describe('text search expression', () => {
  it('concatenates the searchable attributes, JSON ones as text', () => {
    expect(searchExpression(groups)).toBe(
      `coalesce("name", '') || ' ' || coalesce("group_class", '') || ' ' || coalesce("description", '') || ' ' || coalesce("properties"::text, '')`,
    );
  });

  it.each([collections, groups].map((r) => [r.type, r] as const))(
    'is the trigram index expression on %s',
    (_type, r) => {
      // The planner uses an expression index only for the identical expression.
      expect(migration).toContain(
        `CREATE INDEX ${r.type}_search_trgm_idx ON ${r.type} USING gin ((${searchExpression(r)}) gin_trgm_ops);`,
      );
    },
  );
});

describe('["any", "like"|"ilike", "%text%"]', () => {
  it('pre-filters on the indexed expression, then requires one attribute to match', () => {
    expect(q(['any', 'ilike', '%genome%'])).toEqual({
      text: `((${searchExpression(groups)}) ILIKE $1::text AND ("name" ILIKE $2::text OR "group_class" ILIKE $3::text OR "description" ILIKE $4::text OR ("properties"::text) COLLATE "C" ILIKE $5::text))`,
      values: Array(5).fill('%genome%'),
    });
  });

  it('keeps LIKE case-sensitive', () => {
    expect(q(['any', 'LIKE', '%G%']).text).toMatch(
      /^\(\(.*\) LIKE \$1::text AND \("name" LIKE \$2::text/,
    );
  });

  it('skips the pre-filter when the final % is a literal one', () => {
    expect(q(['any', 'like', '%50\\%'])).toEqual({
      text: `("name" LIKE $1::text OR "group_class" LIKE $2::text OR "description" LIKE $3::text OR ("properties"::text) COLLATE "C" LIKE $4::text)`,
      values: Array(4).fill('%50\\%'),
    });
  });

  it('searches resources without a trigram index too', () => {
    expect(q(['any', 'ilike', '%x%'], logs).text).toContain('"event_type" ILIKE');
  });
});

describe('any with other operators', () => {
  it('applies the condition to every string and text attribute, uuids included', () => {
    expect(q(['any', '=', 'x'], users)).toEqual({
      text:
        '("uuid" = $1::text OR "owner_uuid" = $2::text OR "modified_by_user_uuid" = $3::text OR "email" = $4::text OR ' +
        '"username" = $5::text OR "first_name" = $6::text OR "last_name" = $7::text OR ' +
        `(btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) COLLATE "C" = $8::text OR "identity_url" = $9::text)`,
      values: Array(9).fill('x'),
    });
  });

  it('reads like without surrounding % as a per-attribute pattern', () => {
    expect(q(['any', 'like', 'Genome%']).text).toBe(
      '("uuid" LIKE $1::text OR "owner_uuid" LIKE $2::text OR "modified_by_user_uuid" LIKE $3::text OR "name" LIKE $4::text OR ' +
        '"group_class" LIKE $5::text OR "description" LIKE $6::text OR "frozen_by_uuid" LIKE $7::text)',
    );
  });

  it('takes in / not in element by element', () => {
    expect(q(['any', 'not in', ['a', null]]).text).toContain(
      '("uuid" IS NOT NULL AND "uuid" <> ALL($1::text[])) OR',
    );
  });
});
