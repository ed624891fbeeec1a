import type { ClusterConfig } from '@svc/config';
import { blockStoreOf } from '../storage/block-store';
import { runBlockGc } from './block-gc';
import type { Job } from './runner';

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

/** Every background job of a cluster's core; features add theirs here. */
export function coreJobs(cluster: Readonly<ClusterConfig>): Job[] {
  return [blockGc(cluster)];
}
