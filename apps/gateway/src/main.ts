import { loadDeploymentConfig, runService } from '@svc/config';
import { startGateway } from './start-gateway';

/** `node apps/gateway/dist/main.js`: the gateway, reaching each core at its Core.Listen. */
runService(async () => {
  const { config } = loadDeploymentConfig(process.env);
  const gateway = await startGateway(config, {});
  process.stdout.write(`gateway serving ${gateway.url}/\n`);
  for (const warning of gateway.warnings) process.stderr.write(`warning: ${warning}\n`);
  return gateway;
});
