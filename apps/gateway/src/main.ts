import { ConfigError, loadDeploymentConfig } from '@svc/config';
import { startGateway } from './start-gateway';

/** `node apps/gateway/dist/main.js`: the gateway, reaching each core at its Core.Listen. */
async function main(): Promise<void> {
  const { config } = loadDeploymentConfig(process.env);
  const gateway = await startGateway(config, {});
  process.stdout.write(`gateway serving ${gateway.url}/\n`);
  const stop = () => void gateway.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : String((err as Error).stack ?? err)}\n`,
  );
  process.exit(1);
});
