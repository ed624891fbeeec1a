import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { splitListen, type ClusterConfig } from '@svc/config';
import { LOG_REDACT_PATHS } from '@svc/http-kit';
import { proofKey } from '@svc/ids';
import { buildCoreListener } from './app';
import { seedBuiltIns } from './bootstrap/seed';
import { seedBuiltInPermissions } from './permissions/graph-writes';
import type { Db } from './db/db';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-db';
import { openPrisma } from './db/prisma';
import { coreJobs, JobRunner } from './jobs';
import { closeBlockStore, openBlockStore } from './storage/block-store';

export interface RunningCore {
  clusterId: string;
  /** `http://host:port` of the core (for the gateway only). */
  url: string;
  db: Db;
  /** Background work of this cluster (trash sweep, garbage collection, …). */
  jobs: JobRunner;
  close(): Promise<void>;
}

export const defaultLogger = (): Logger =>
  pino({
    level: process.env['SVC_LOG_LEVEL'] ?? 'info',
    base: { app: 'core' },
    // Nothing logs these today; should a request or body ever be logged, its secrets are not.
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
  });

/** Opens the cluster's database, applies migrations, seeds built-ins, and listens. */
export async function startCore(
  cluster: Readonly<ClusterConfig>,
  log: Logger = defaultLogger(),
): Promise<RunningCore> {
  const opened = await openDatabase(cluster.Database.URL, {
    max: cluster.Database.MaxConnections,
    connectTimeoutMs: cluster.Database.ConnectTimeout * 1000,
    statementTimeoutMs: cluster.Database.StatementTimeout * 1000,
  });
  await migrate(opened.db);
  const prisma = await openPrisma(opened);
  await seedBuiltIns(prisma, cluster.ClusterID);
  await opened.db.transaction((tx) => seedBuiltInPermissions(tx, cluster.ClusterID));
  await openBlockStore(cluster, log);
  const listener = buildCoreListener({
    cluster,
    db: opened.db,
    proofKey: proofKey(cluster.SystemRootToken),
    log,
  });
  const server: Server = createServer(listener);
  server.keepAliveTimeout = 65_000;
  const { host, port } = splitListen(cluster.Core.Listen);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const jobs = new JobRunner({ db: opened.db, cluster, log }, coreJobs(cluster));
  jobs.start();
  const address = server.address() as AddressInfo;
  log.info({ cluster: cluster.ClusterID, port: address.port }, 'core listening');
  return {
    clusterId: cluster.ClusterID,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    db: opened.db,
    jobs,
    async close() {
      await jobs.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await prisma.$disconnect();
      await opened.db.close();
      await closeBlockStore(cluster.ClusterID);
    },
  };
}
