import { createServer, type Server } from 'node:http';
import pino, { type Logger } from 'pino';
import { splitListen, type Config } from '@svc/config';
import {
  answerClientErrors,
  drain,
  listenOn,
  LOG_REDACT_PATHS,
  observedListener,
} from '@svc/http-kit';
import { buildGatewayListener } from './app';
import { BlockStore, volumesOf } from '@svc/volumes';
import { accessTokenFallback } from './login';
import { OtherClusters } from './blocks/other-clusters';
import { composeFederation } from './federation/compose';
import { gatewayOperations } from './operations';
import { exposureWarning } from './http/allowed-hosts';

export interface RunningGateway {
  url: string;
  /** What whoever started it should be told (printed at start by the launcher). */
  warnings: string[];
  close(): Promise<void>;
}

export const gatewayLogger = (): Logger =>
  pino(
    {
      level: process.env['SVC_LOG_LEVEL'] ?? 'info',
      base: { app: 'gateway' },
      // Nothing logs these today; should a request or body ever be logged, its secrets are not.
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    },
    // Asynchronous: a request's log line is queued, never written on the request's path;
    // pino flushes what is queued when the process exits.
    pino.destination({ dest: 1, sync: false }),
  );

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
  const home = config.Clusters[config.Gateway.HomeCluster]!;
  const fed = composeFederation(config, coreUrls, (homeCore) =>
    accessTokenFallback(home, homeCore),
  );
  const auth = {
    home,
    cache: fed.cache,
    homeCore: fed.homeCore,
    ...(fed.fallback ? { fallback: fed.fallback } : {}),
  };
  const blocks = new BlockStore(volumesOf(home), log.child({ part: 'blocks' }));
  await blocks.start();
  // The other clusters of this deployment: their volumes, read and written without a hop.
  const siblings = new Map<string, BlockStore>();
  for (const [id, cluster] of Object.entries(config.Clusters)) {
    if (id === home.ClusterID) continue;
    const store = new BlockStore(volumesOf(cluster), log.child({ part: 'blocks', cluster: id }));
    await store.start();
    siblings.set(id, store);
  }
  const otherClusters = new OtherClusters({
    config,
    home: home.ClusterID,
    stores: siblings,
    identities: fed.identities,
  });
  const listener = buildGatewayListener({
    config,
    home,
    cores: fed.cores,
    federation: fed.federation,
    identities: fed.identities,
    forward: fed.forward,
    auth,
    log,
    blocks,
    otherClusters,
  });
  const ops = gatewayOperations(config, home, coreUrls, fed.cache, blocks);
  const server: Server = createServer(observedListener(listener, { log, ops }));
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  const { host } = splitListen(listen);
  let address;
  try {
    address = await listenOn(server, listen, 'Gateway.Listen');
  } catch (err) {
    await fed.close();
    await blocks.close();
    throw err;
  }
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  log.info({ port: address.port }, 'gateway listening');
  const warnings = [exposureWarning(config, home)].filter((w): w is string => w !== null);
  for (const warning of warnings) log.warn(warning);
  return {
    warnings,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`,
    /** Stops accepting, lets requests in flight finish (at most Gateway.ShutdownTimeout). */
    async close() {
      await drain(server, config.Gateway.ShutdownTimeout * 1000);
      await fed.close();
      await blocks.close();
      await otherClusters.close();
      await Promise.all([...siblings.values()].map((s) => s.close()));
    },
  };
}
