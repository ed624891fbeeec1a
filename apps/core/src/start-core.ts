import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { splitListen, type ClusterConfig } from '@svc/config';
import { proofKey } from '@svc/ids';
import { buildCoreApp } from './app';
import { builtInUuids } from '@svc/contract';
import { seedBuiltIns } from './bootstrap/seed';
import { refreshPermissions } from './permissions/materialize';
import type { Db } from './db/db';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-db';
import { openPrisma } from './db/prisma';
import { closeBlockStore, openBlockStore } from './storage/block-store';
import { scheduleBlockGc } from './jobs/block-gc-schedule';

export interface RunningCore {
  clusterId: string;
  /** `http://host:port` of the core (for the gateway only). */
  url: string;
  db: Db;
  close(): Promise<void>;
}

export const defaultLogger = (): Logger =>
  pino({ level: process.env['SVC_LOG_LEVEL'] ?? 'info', base: { app: 'core' } });

/** Opens the cluster's database, applies migrations, seeds built-ins, and listens. */
export async function startCore(
  cluster: Readonly<ClusterConfig>,
  log: Logger = defaultLogger(),
): Promise<RunningCore> {
  const opened = await openDatabase(cluster.Database.URL);
  await migrate(opened.db);
  const prisma = await openPrisma(opened);
  await seedBuiltIns(prisma, cluster.ClusterID);
  // The seeded anonymous membership is a permission edge like any other.
  await opened.db.transaction((tx) =>
    refreshPermissions(tx, cluster.ClusterID, [builtInUuids(cluster.ClusterID).anonymousGroup]),
  );
  await openBlockStore(cluster, log);
  const stopBlockGc = scheduleBlockGc(opened.db, cluster, log);
  const app = buildCoreApp({
    cluster,
    db: opened.db,
    proofKey: proofKey(cluster.SystemRootToken),
    log,
  });
  const server: Server = createServer(app);
  server.keepAliveTimeout = 65_000;
  const { host, port } = splitListen(cluster.Core.Listen);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  log.info({ cluster: cluster.ClusterID, port: address.port }, 'core listening');
  return {
    clusterId: cluster.ClusterID,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    db: opened.db,
    async close() {
      stopBlockGc();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await prisma.$disconnect();
      await opened.db.close();
      await closeBlockStore(cluster.ClusterID);
    },
  };
}
