import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { adminQuery, ENV, runPrefix } from './database-target';

/** Removes whatever test databases a crashed test left behind. */
export default async function globalTeardown(): Promise<void> {
  if (process.env[ENV.mode] === 'postgres') {
    const admin = process.env[ENV.adminUrl]!;
    const prefix = runPrefix().replace(/_/g, '\\_');
    const { rows } = await adminQuery(
      admin,
      `SELECT datname FROM pg_database WHERE datname LIKE '${prefix}%'`,
    );
    for (const row of rows as { datname: string }[]) {
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`).catch(
        () => undefined,
      );
    }
  }
  const seed = process.env[ENV.pgliteSeed];
  if (seed) rmSync(dirname(seed), { recursive: true, force: true });
}
