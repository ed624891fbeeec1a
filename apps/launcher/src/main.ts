import { ConfigError, loadDeploymentConfig } from '@svc/config';
import { defaultLogger } from '@svc/core';
import { gatewayLogger } from '@svc/gateway';
import { startDeployment } from './deployment';

async function main(): Promise<void> {
  const { config, notes } = loadDeploymentConfig(process.env);
  const deployment = await startDeployment(config, { core: defaultLogger(), gateway: gatewayLogger() });
  const lines = [
    '',
    `svc is serving ${deployment.gateway.url}/`,
    `cluster: ${Object.keys(config.Clusters).join(', ')} (home ${config.Gateway.HomeCluster})`,
    ...notes,
    `discovery: ${deployment.gateway.url}/discovery/v1/apis/svc/v1/rest`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const stop = () => {
    deployment.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `svc failed to start: ${(err as Error).stack ?? String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
