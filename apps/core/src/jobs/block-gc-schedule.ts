import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';
import type { Db } from '../db/db';
import { blockStoreOf } from '../storage/block-store';
import { runBlockGc } from './block-gc';

/**
 * Runs garbage collection every `Collections.BlobTrashCheckInterval` seconds (0: never) until
 * stopped. A stand-in until the core's job runner schedules `runBlockGc` with its other jobs.
 */
export function scheduleBlockGc(db: Db, cluster: Readonly<ClusterConfig>, log: Logger): () => void {
  const seconds = cluster.Collections.BlobTrashCheckInterval;
  const store = blockStoreOf(cluster.ClusterID);
  if (seconds === 0 || !store || store.states.length === 0) return () => undefined;
  const timer = setInterval(
    () => {
      runBlockGc({ db, cluster, store, now: Date.now, log }).catch((err: unknown) =>
        log.error({ err }, 'block garbage collection failed'),
      );
    },
    Math.min(seconds * 1000, 2 ** 31 - 1),
  );
  timer.unref();
  return () => clearInterval(timer);
}
