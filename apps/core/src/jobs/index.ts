import type { ClusterConfig } from '@svc/config';
import { forgetExpiredProofs, PROOF_KEPT_MS } from '../auth/used-proofs';
import { blockStoreOf } from '../storage/block-store';
import { runBlockGc } from './block-gc';
import type { Job } from './runner';
import { runTrashSweep } from './trash-sweep';

export { JobRunner, jobLockKey, type Job, type JobContext, type JobStats } from './runner';

/** Block garbage collection every BlobTrashCheckInterval (0: only when triggered). */
const blockGc = (cluster: Readonly<ClusterConfig>): Job => ({
  name: 'block-gc',
  everyMs: cluster.Collections.BlobTrashCheckInterval * 1000,
  async run({ db, log }) {
    const store = blockStoreOf(cluster.ClusterID);
    if (!store || store.states.length === 0) return { skipped: 1 };
    return runBlockGc({ db, cluster, store, now: Date.now, log });
  },
});

export const TRASH_SWEEP = 'trash-sweep';

/** The trash sweep at least once a minute (groups.md §6). */
const trashSweep = (cluster: Readonly<ClusterConfig>): Job => ({
  name: TRASH_SWEEP,
  everyMs: 30_000,
  run: ({ db, log }) => runTrashSweep({ db, cluster, log, now: Date.now }),
});

/** Accepted call proofs are kept only while a core could still accept them (docs/adr/0017). */
const expireCallProofs: Job = {
  name: 'expire-call-proofs',
  everyMs: PROOF_KEPT_MS / 2,
  run: async ({ db }) => ({ removed: await forgetExpiredProofs(db) }),
};

/** Every background job of a cluster's core; features add theirs here. */
export function coreJobs(cluster: Readonly<ClusterConfig>): Job[] {
  return [blockGc(cluster), trashSweep(cluster), expireCallProofs];
}
