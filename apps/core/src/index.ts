export { buildCoreListener } from './app';
export { startCore, defaultLogger, type Progress, type RunningCore } from './start-core';
export { openDatabase } from './db/open-db';
export { migrate, readMigrations } from './db/migrate';
export type { Db } from './db/db';
export { JobRunner, jobLockKey, type Job, type JobContext } from './jobs';
export { runBlockGc, type BlockGcDeps, type BlockGcCounts } from './jobs/block-gc';
export { runTrashSweep, type TrashSweepCounts, type TrashSweepDeps } from './jobs/trash-sweep';
