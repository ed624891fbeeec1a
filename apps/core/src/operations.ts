import { Gauge, Histogram } from 'prom-client';
import type { ClusterConfig } from '@svc/config';
import { blockGcMetrics, corruptCopyMetric, HttpMetrics, type Operations } from '@svc/http-kit';
import { internalHealthToken } from '@svc/ids';
import { statement } from './db/db';
import type { OpenedDb } from './db/open-db';
import { refreshTimings } from './permissions/materialize';
import { blockStoreOf } from './storage/block-store';
import type { VocabularySource } from './vocabulary/source';

/** A database that does not answer within this is reported unhealthy. */
const PING_TIMEOUT_MS = 2_000;

async function pingDatabase(opened: OpenedDb): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('database did not answer in time'), PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      opened.db.query(statement('SELECT 1', [])).then(() => null),
      timeout,
    ]);
  } catch (err) {
    return `database: ${(err as Error).message.split('\n')[0]}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A core's operations endpoints: `/_health/ping` asks its database, `/_health/vocabulary` its
 * vocabulary file, `/metrics` counts its
 * requests, its pool's connections, its permission refreshes, and its block store's garbage
 * collection and corrupt copies.
 */
export function coreOperations(
  cluster: Readonly<ClusterConfig>,
  opened: OpenedDb,
  vocabulary: VocabularySource,
) {
  const metrics = new HttpMetrics({ app: 'core', cluster: cluster.ClusterID });
  new Gauge({
    name: 'svc_db_pool_connections',
    help: 'Database connections of the cluster core: open, idle, and callers waiting for one',
    labelNames: ['state'],
    registers: [metrics.registry],
    collect() {
      const use = opened.poolUse();
      this.set({ state: 'total' }, use.total);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
    },
  });
  const refreshes = new Histogram({
    name: 'svc_permission_refresh_duration_seconds',
    help: 'Time to bring materialized permissions up to date after a graph change',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [metrics.registry],
  });
  const blockCounters = () => blockStoreOf(cluster.ClusterID)?.counters ?? null;
  blockGcMetrics(metrics.registry, blockCounters);
  corruptCopyMetric(metrics.registry, blockCounters);
  refreshTimings.set(cluster.ClusterID, (seconds) => refreshes.observe(seconds));
  const operations: Operations = {
    token: cluster.ManagementToken,
    internalToken: internalHealthToken(cluster.SystemRootToken),
    metrics,
    ping: () => pingDatabase(opened),
    vocabulary: () => Promise.resolve(vocabulary.problem()),
  };
  return {
    operations,
    close: () => {
      refreshTimings.delete(cluster.ClusterID);
    },
  };
}
