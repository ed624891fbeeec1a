import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { splitListen, type Config } from '@svc/config';
import { proofKey } from '@svc/ids';
import { rootIdentity } from '@svc/contract';
import { BlockStore, volumesOf } from '@svc/volumes';
import { buildGatewayApp } from './app';
import { TokenCache } from './auth/token-cache';
import { CoreClient } from './core-client';
import { accessTokenFallback } from './login';
import type { CoreTarget } from './core-client';

export interface RunningGateway {
  url: string;
  close(): Promise<void>;
}

export const gatewayLogger = (): Logger =>
  pino({ level: process.env['SVC_LOG_LEVEL'] ?? 'info', base: { app: 'gateway' } });

/**
 * Serves the deployment's public URL. `coreUrls` gives each cluster core's address; a core
 * not given is reached at its configured `Core.Listen`.
 */
export async function startGateway(
  config: Readonly<Config>,
  coreUrls: Readonly<Record<string, string>>,
  log: Logger = gatewayLogger(),
  listen = config.Gateway.Listen,
): Promise<RunningGateway> {
  const cores = new Map<string, CoreTarget>();
  for (const [id, cluster] of Object.entries(config.Clusters)) {
    cores.set(id, {
      clusterId: id,
      url: coreUrls[id] ?? `http://${cluster.Core.Listen}`,
      proofKey: proofKey(cluster.SystemRootToken),
      cluster,
    });
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 1000 });
  const home = config.Clusters[config.Gateway.HomeCluster]!;
  const homeCore = new CoreClient(cores.get(home.ClusterID)!, rootIdentity(home.ClusterID));
  const auth = {
    home,
    cache: new TokenCache(),
    homeCore,
    fallback: accessTokenFallback(home, homeCore),
  };
  const blocks = new BlockStore(volumesOf(home), log.child({ part: 'blocks' }));
  await blocks.start();
  const app = buildGatewayApp({ config, home, cores, agent, auth, log, blocks });
  const server: Server = createServer(app);
  server.keepAliveTimeout = 65_000;
  const { host, port } = splitListen(listen);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  log.info({ port: address.port }, 'gateway listening');
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await homeCore.close();
      await blocks.close();
    },
  };
}
