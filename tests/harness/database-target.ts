import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomAlnum } from '@svc/ids';
import { readMigrations } from '@svc/core';

/**
 * Where test clusters keep their data: real PostgreSQL when one is reachable (DATABASE_URL, or
 * 127.0.0.1:5432), else the embedded PGlite. The choice is made once, in global setup, and
 * passed to the test workers through the environment.
 */
export const ENV = {
  mode: 'SVC_TEST_DB_MODE',
  adminUrl: 'SVC_TEST_PG_ADMIN_URL',
  template: 'SVC_TEST_PG_TEMPLATE',
  pgliteSeed: 'SVC_TEST_PGLITE_SEED_DIR',
  runId: 'SVC_TEST_RUN_ID',
} as const;

/** Databases of this test run share a prefix, so teardown removes only its own. */
export const runPrefix = (): string => `svc_t_${process.env[ENV.runId] ?? 'x'}_`;

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The template's name changes with the migrations, so a stale one is never used. */
export function templateName(): string {
  const digest = createHash('sha256');
  for (const m of readMigrations()) digest.update(m.checksum);
  return `svc_test_template_${digest.digest('hex').slice(0, 12)}`;
}

export function withDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function adminQuery(adminUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for one test cluster, and how to remove it. `kind` forces the embedded
 * database (so both engines are tested whatever the machine has).
 */
export async function createClusterDatabase(
  kind: 'default' | 'pglite' = 'default',
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === 'default' && process.env[ENV.mode] === 'postgres') {
    const admin = process.env[ENV.adminUrl]!;
    const name = `${runPrefix()}${randomAlnum(10)}`;
    await adminQuery(admin, `CREATE DATABASE ${name} TEMPLATE ${process.env[ENV.template]!}`);
    return {
      url: withDatabase(admin, name),
      drop: async () => {
        await adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-pglite-'));
  const seed = process.env[ENV.pgliteSeed];
  if (seed) cpSync(seed, join(dir, 'db'), { recursive: true });
  return {
    url: `pglite:${join(dir, 'db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
