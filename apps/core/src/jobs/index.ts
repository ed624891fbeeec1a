import type { ClusterConfig } from '@svc/config';
import type { Job } from './runner';

export { JobRunner, jobLockKey, type Job, type JobContext, type JobStats } from './runner';

/** Every background job of a cluster's core; features add theirs here. */
export function coreJobs(_cluster: Readonly<ClusterConfig>): Job[] {
  return [];
}
