import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { splitListen, type Config } from '@svc/config';
import { ProofSigner, proofKey } from '@svc/ids';
import { buildGatewayListener } from './app';
import { TokenCache } from './auth/token-cache';
import { CoreClient } from './core-client';
import { accessTokenFallback } from './login';
import { Federation } from './federation/federation';

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
  const signer = new ProofSigner();
  const cores = new Map<string, CoreClient>();
  for (const [id, cluster] of Object.entries(config.Clusters)) {
    const target = {
      clusterId: id,
      url: coreUrls[id] ?? `http://${cluster.Core.Listen}`,
      proofKey: proofKey(cluster.SystemRootToken),
      cluster,
    };
    cores.set(id, new CoreClient(target, signer));
  }
  const home = config.Clusters[config.Gateway.HomeCluster]!;
  const homeCore = cores.get(home.ClusterID)!;
  const auth = {
    home,
    cache: new TokenCache(),
    homeCore,
    fallback: accessTokenFallback(home, homeCore),
  };
  const federation = new Federation(home.ClusterID, cores);
  const listener = buildGatewayListener({ config, home, cores, federation, auth, log });
  const server: Server = createServer(listener);
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
      await Promise.all([...cores.values()].map((c) => c.close()));
    },
  };
}
