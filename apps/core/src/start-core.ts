import { createServer, type Server } from 'node:http';
import pino, { type Logger } from 'pino';
import { splitListen, type ClusterConfig } from '@svc/config';
import { drain, listenOn, LOG_REDACT_PATHS, observedListener } from '@svc/http-kit';
import { proofKey } from '@svc/ids';
import { buildCoreListener } from './app';
import { seedBuiltIns } from './bootstrap/seed';
import { seedBuiltInPermissions } from './permissions/graph-writes';
import type { Db } from './db/db';
import { migrate } from './db/migrate';
import { openDatabase } from './db/open-db';
import { DatabaseOutage } from './db/outage';
import { openPrisma } from './db/prisma';
import { coreJobs, JobRunner } from './jobs';
import { closeBlockStore, openBlockStore } from './storage/block-store';
import { coreOperations } from './operations';
import { startStep } from './start-failure';
import { registerServices, type ClusterServices } from './cluster-services';
import { Mailer } from './mail/mailer';
import { VocabularySource } from './vocabulary/source';

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
  pino(
    {
      level: process.env['SVC_LOG_LEVEL'] ?? 'info',
      base: { app: 'core' },
      // Nothing logs these today; should a request or body ever be logged, its secrets are not.
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    },
    // Asynchronous: a request's log line is queued, never written on the request's path;
    // pino flushes what is queued when the process exits.
    pino.destination({ dest: 1, sync: false }),
  );

/** Start-up steps worth telling whoever started the server (migrations can take seconds). */
export type Progress = (line: string) => void;

/** How long a core waits for its own requests in flight when it closes (the gateway drained). */
const CORE_DRAIN_MS = 5_000;

/** Opens the cluster's database, applies migrations, seeds built-ins, and listens. */
export async function startCore(
  cluster: Readonly<ClusterConfig>,
  log: Logger = defaultLogger(),
  progress: Progress = (line) => log.info(line),
): Promise<RunningCore> {
  const id = cluster.ClusterID;
  const databaseKey = `Clusters.${id}.Database.URL`;
  const say = (line: string) => progress(`${id}: ${line}`);
  say(
    `opening database (${cluster.Database.URL.startsWith('pglite:') ? 'embedded' : 'PostgreSQL'})`,
  );
  const opened = await startStep(databaseKey, () =>
    openDatabase(cluster.Database.URL, {
      max: cluster.Database.MaxConnections,
      connectTimeoutMs: cluster.Database.ConnectTimeout * 1000,
      waitTimeoutMs: cluster.API.DatabaseWaitTimeout * 1000,
      statementTimeoutMs: cluster.Database.StatementTimeout * 1000,
      readTimeoutMs: cluster.API.MaxListDuration * 1000,
      lockTimeoutMs: cluster.API.LockTimeout * 1000,
    }),
  );
  try {
    return await startOpened(cluster, log, opened, say);
  } catch (err) {
    await opened.db.close().catch(() => undefined);
    throw err;
  }
}

async function startOpened(
  cluster: Readonly<ClusterConfig>,
  log: Logger,
  opened: Awaited<ReturnType<typeof openDatabase>>,
  say: Progress,
): Promise<RunningCore> {
  const databaseKey = `Clusters.${cluster.ClusterID}.Database.URL`;
  const vocabulary = await startStep(`Clusters.${cluster.ClusterID}.API.VocabularyPath`, () =>
    Promise.resolve(new VocabularySource(cluster.API.VocabularyPath)),
  );
  const started = Date.now();
  const applied = await startStep(databaseKey, () =>
    migrate(opened.db, undefined, (name, ms) => say(`migration ${name} applied (${ms} ms)`)),
  );
  say(
    applied.length === 0
      ? 'database schema up to date'
      : `${applied.length} migration(s) applied in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const prisma = await openPrisma(opened);
  await startStep(databaseKey, async () => {
    await seedBuiltIns(prisma, cluster.ClusterID);
    await opened.db.transaction((tx) => seedBuiltInPermissions(tx, cluster.ClusterID));
  });
  await openBlockStore(cluster, log);
  const mailer = new Mailer(cluster, log);
  const services: ClusterServices = { vocabulary, mailer, jobs: null };
  registerServices(cluster, services);
  const listener = buildCoreListener({
    cluster,
    db: opened.db,
    proofKey: proofKey(cluster.SystemRootToken),
    log,
    outage: new DatabaseOutage(log, cluster.ClusterID),
  });
  const ops = coreOperations(cluster, opened, vocabulary);
  const server: Server = createServer(observedListener(listener, { log, ops: ops.operations }));
  server.keepAliveTimeout = 65_000;
  let address;
  try {
    address = await listenOn(
      server,
      cluster.Core.Listen,
      `Clusters.${cluster.ClusterID}.Core.Listen`,
    );
  } catch (err) {
    ops.close();
    mailer.close();
    await prisma.$disconnect();
    throw err;
  }
  const jobs = new JobRunner({ db: opened.db, cluster, log }, coreJobs(cluster));
  services.jobs = jobs;
  jobs.start();
  const { host } = splitListen(cluster.Core.Listen);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  say(`core listening on ${url}`);
  let closing: Promise<void> | undefined;
  const closeAll = async () => {
    await jobs.stop();
    await drain(server, CORE_DRAIN_MS);
    ops.close();
    mailer.close();
    await prisma.$disconnect();
    await opened.db.close();
    await closeBlockStore(cluster.ClusterID);
  };
  log.info({ cluster: cluster.ClusterID, port: address.port }, 'core listening');
  return {
    clusterId: cluster.ClusterID,
    url,
    db: opened.db,
    jobs,
    /** Once: a second call waits for the first. */
    close: () => (closing ??= closeAll()),
  };
}
