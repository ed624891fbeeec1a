import { loadDeploymentConfig, splitListen } from '@svc/config';

/**
 * The container's HEALTHCHECK: `/_health/ping` of this deployment's gateway with its
 * ManagementToken (exit 0 when it answers OK). Without a token, the discovery document.
 */
async function main(): Promise<number> {
  const { config } = loadDeploymentConfig(process.env);
  const { host, port } = splitListen(config.Gateway.Listen);
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const base = `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
  const token = config.Clusters[config.Gateway.HomeCluster]?.ManagementToken ?? '';
  const res = await fetch(
    token === '' ? `${base}/discovery/v1/apis/svc/v1/rest` : `${base}/_health/ping`,
    {
      headers: token === '' ? {} : { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000),
    },
  );
  process.stdout.write(`${res.status}\n`);
  return res.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`unhealthy: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
