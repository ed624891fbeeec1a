export { buildCoreApp } from './app';
export { startCore, defaultLogger, type RunningCore } from './start-core';
export { openDatabase } from './db/open-db';
export { migrate, readMigrations } from './db/migrate';
export type { Db } from './db/db';
export { runBlockGc, type BlockGcDeps, type BlockGcCounts } from './jobs/block-gc';
