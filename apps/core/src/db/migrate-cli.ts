import { ConfigError, loadDeploymentConfig } from '@svc/config';
import { migrate } from './migrate';
import { openDatabase } from './open-db';

/** `pnpm db:migrate`: applies pending migrations to every cluster database of the config. */
async function main(): Promise<void> {
  const { config } = loadDeploymentConfig(process.env);
  for (const cluster of Object.values(config.Clusters)) {
    const { db } = await openDatabase(cluster.Database.URL);
    try {
      const applied = await migrate(db);
      process.stdout.write(
        `${cluster.ClusterID}: ${applied.length ? applied.join(', ') : 'up to date'}\n`,
      );
    } finally {
      await db.close();
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : String((err as Error).stack ?? err)}\n`,
  );
  process.exit(1);
});
