/**
 * Property: for random collections and random valid filters, the rows PostgreSQL returns for the
 * compiled SQL are exactly the rows a small in-memory evaluator of lists-and-filters.md §7–§13
 * selects (tests/harness/filter-model/: the generators and the evaluator). Runs on a throwaway
 * database migrated like a real one.
 */
import fc from 'fast-check';
import pg from 'pg';
import { collections, resourceByType } from '@svc/contract';
import { migrate, openDatabase } from '@svc/core';
import { randomAlnum } from '@svc/ids';
import { compileFilters, toQuery } from '@svc/list-engine';
import { DEFAULT_PG_URL, ENV, withDatabase } from '../harness/database-target';
import { matches } from '../harness/filter-model/evaluate';
import { filter, rows } from '../harness/filter-model/generate';
import type { Row } from '../harness/filter-model/row';
import { describeWith } from '../harness/system';

describeWith('postgresql', 'filters compiled to SQL, against PostgreSQL', () => {
  // ---------- the database ----------
  const admin = process.env[ENV.adminUrl] ?? DEFAULT_PG_URL;
  const dbName = `svc_filters_prop_${randomAlnum(8)}`;
  let client: pg.Client;

  beforeAll(async () => {
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
});
