import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '@svc/core';
import { randomAlnum } from '@svc/ids';
import {
  adminQuery,
  DEFAULT_PG_URL,
  ENV,
  reachable,
  templateName,
  withDatabase,
} from './database-target';

async function preparePostgres(adminUrl: string): Promise<void> {
  const template = templateName();
  const exists = await adminQuery(
    adminUrl,
    `SELECT 1 FROM pg_database WHERE datname = '${template}'`,
  );
  if (exists.rowCount === 0) {
    await adminQuery(adminUrl, `CREATE DATABASE ${template}`);
    const { db } = await openDatabase(withDatabase(adminUrl, template));
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
  }
  process.env[ENV.mode] = 'postgres';
  process.env[ENV.adminUrl] = adminUrl;
  process.env[ENV.template] = template;
}

async function preparePglite(): Promise<void> {
  const dir = join(mkdtempSync(join(tmpdir(), 'svc-test-seed-')), 'db');
  const { db } = await openDatabase(`pglite:${dir}`);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  process.env[ENV.mode] = 'pglite';
  process.env[ENV.pgliteSeed] = dir;
}

/** Chooses PostgreSQL if reachable, else PGlite, and prepares a migrated template once. */
export default async function globalSetup(): Promise<void> {
  process.env[ENV.runId] = randomAlnum(6);
  const candidates = process.env['DATABASE_URL'] ? [process.env['DATABASE_URL']] : [DEFAULT_PG_URL];
  if (process.env['SVC_TEST_DB'] !== 'pglite') {
    for (const url of candidates) {
      if (await reachable(url)) {
        await preparePostgres(url);
        process.stdout.write(`\ntests use PostgreSQL at ${new URL(url).host}\n`);
        return;
      }
    }
  }
  await preparePglite();
  process.stdout.write('\ntests use the embedded PostgreSQL (PGlite)\n');
}
