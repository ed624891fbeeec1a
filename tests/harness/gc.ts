import pino from 'pino';
import { runBlockGc } from '@svc/core';
import { BlockStore, volumesOf } from '@svc/volumes';
import { homeCore, type TestDeployment } from './deployment';

/**
 * The home cluster's volumes as garbage collection sees them, on a clock the test moves, and a
 * run of the collector at that clock.
 */
export async function gcHarness(d: TestDeployment, startMs = Date.now()) {
  const clock = { now: startMs };
  const cluster = d.config.Clusters[d.home.id]!;
  const log = pino({ level: process.env['SVC_TEST_LOG'] ?? 'silent' });
  const store = new BlockStore(
    volumesOf(cluster, () => clock.now),
    log,
  );
  await store.start();
  const db = homeCore(d).db;
  return {
    clock,
    store,
    db,
    run: () => runBlockGc({ db, cluster, store, now: () => clock.now, log }),
    close: () => store.close(),
  };
}

export const DAY_MS = 86_400_000;
