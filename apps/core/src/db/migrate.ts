import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { statement, type Db } from './db';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** `prisma/migrations` of the repository, wherever this module was built to. */
export function defaultMigrationsDir(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    dir = resolve(dir, '..');
  }
  throw new Error('prisma/migrations not found above ' + __dirname);
}

/** Migrations in name order; the checksum is Prisma's (sha256 hex of the file). */
export function readMigrations(dir = defaultMigrationsDir()): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** Prisma's own bookkeeping table, so `prisma migrate status` agrees where it can run. */
const BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Any fixed number: serializes migrators of one database across processes. */
const MIGRATION_LOCK = 7_311_002;

export class MigrationChecksumError extends Error {}

/**
 * Applies every pending migration, each in its own transaction under an advisory lock, and
 * records it. Idempotent; refuses to run when an applied migration's file has changed.
 */
export async function migrate(
  db: Db,
  migrations = readMigrations(),
  onApplied: (name: string, ms: number) => void = () => {},
): Promise<string[]> {
  const applied: string[] = [];
  for (const m of migrations) {
    const started = Date.now();
    const ran = await db.transaction(async (tx) => {
      await tx.query(statement('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]));
      await tx.exec(BOOKKEEPING);
      const { rows } = await tx.query<{ checksum: string }>(
        statement(
          'SELECT checksum FROM "_prisma_migrations" WHERE migration_name = $1 AND rolled_back_at IS NULL',
          [m.name],
        ),
      );
      if (rows[0]) {
        if (rows[0].checksum !== m.checksum) {
          throw new MigrationChecksumError(`migration ${m.name} was changed after it was applied`);
        }
        return false;
      }
      await tx.exec(m.sql);
      await tx.query(
        statement(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        ),
      );
      return true;
    });
    if (ran) {
      applied.push(m.name);
      onApplied(m.name, Date.now() - started);
    }
  }
  return applied;
}
