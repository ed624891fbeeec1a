import { loadDeploymentConfig, runService, type Config } from '@svc/config';
import { defaultLogger } from '@svc/core';
import { gatewayLogger } from '@svc/gateway';
import { startDeployment } from './deployment';
import { startEmbeddedDispatcher } from './dispatch';

/**
 * Where to log in with a browser when the login form can send it back to this gateway: the
 * form's return_to is the user's own record, so the token shows up in the address bar.
 */
function loginNote(config: Readonly<Config>, url: string): string[] {
  const home = config.Clusters[config.Gateway.HomeCluster];
  if (!home || home.Login.OpenIDConnect.Enable || !home.Login.TrustedClients.includes(url))
    return [];
  const returnTo = `${url}/svc/v1/users/current`;
  return [`log in: ${url}/login?return_to=${encodeURIComponent(returnTo)}`];
}

/**
 * Where people open the web console: the gateway's root, or the configured
 * Services.Workbench2.ExternalURL (else ExternalURL).
 */
function consoleUrl(config: Readonly<Config>, url: string): string {
  const home = config.Clusters[config.Gateway.HomeCluster];
  return home?.Services.Workbench2.ExternalURL || home?.ExternalURL || `${url}/`;
}

/** Each start-up step on its own line, so a slow first start (migrations) is visibly busy. */
const progress = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

runService(async () => {
  progress('svc: reading configuration');
  const { config, notes } = loadDeploymentConfig(process.env);
  const deployment = await startDeployment(
    config,
    { core: defaultLogger(), gateway: gatewayLogger() },
    progress,
  );
  const embedded = await startEmbeddedDispatcher(
    config,
    deployment.gateway.url,
    process.env['SVC_DATA_DIR'] ?? './data',
  ).catch(async (err) => {
    await deployment.close();
    throw err;
  });
  const lines = [
    '',
    `svc is serving ${deployment.gateway.url}/`,
    `web console: ${consoleUrl(config, deployment.gateway.url)}`,
    `cluster: ${Object.keys(config.Clusters).join(', ')} (home ${config.Gateway.HomeCluster})`,
    ...notes,
    ...(embedded ? [embedded.note] : []),
    ...loginNote(config, deployment.gateway.url),
    `discovery: ${deployment.gateway.url}/discovery/v1/apis/svc/v1/rest`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
  for (const warning of deployment.gateway.warnings) process.stderr.write(`warning: ${warning}\n`);
  return {
    async close() {
      await embedded?.dispatcher.stop();
      await deployment.close();
    },
  };
});
