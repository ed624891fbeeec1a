import { ConfigError, loadDeploymentConfig } from '@svc/config';
import { startCore } from './start-core';

/** `node apps/core/dist/main.js <cluster id>`: one cluster core on its configured Core.Listen. */
async function main(): Promise<void> {
  const { config } = loadDeploymentConfig(process.env);
  const id = process.argv[2] ?? config.Gateway.HomeCluster;
  const cluster = config.Clusters[id];
  if (!cluster) throw new ConfigError('Clusters', `no cluster "${id}" in the configuration`);
  const core = await startCore(cluster);
  const stop = () => void core.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : String((err as Error).stack ?? err)}\n`,
  );
  process.exit(1);
});
