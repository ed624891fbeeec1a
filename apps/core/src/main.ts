import { ConfigError, loadDeploymentConfig, runService } from '@svc/config';
import { startCore } from './start-core';

/** `node apps/core/dist/main.js <cluster id>`: one cluster core on its configured Core.Listen. */
runService(async () => {
  const { config } = loadDeploymentConfig(process.env);
  const id = process.argv[2] ?? config.Gateway.HomeCluster;
  const cluster = config.Clusters[id];
  if (!cluster) throw new ConfigError('Clusters', `no cluster "${id}" in the configuration`);
  return startCore(cluster);
});
