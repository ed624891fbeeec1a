import type { Db } from './db';
import { openPglite } from './pglite-db';
import { openPostgres, type PostgresOptions } from './pg-db';

export interface OpenedDb {
  db: Db;
  /** A Prisma driver adapter over the same connections. */
  prismaAdapter: () => Promise<unknown>;
  /** Connections of the pool: open, idle, and callers waiting for one. */
  poolUse: () => { total: number; idle: number; waiting: number };
}

/** `postgres://…` opens a pool; `pglite:<dir>` or `pglite:memory` an embedded database. */
export async function openDatabase(url: string, opts: PostgresOptions = {}): Promise<OpenedDb> {
  if (url.startsWith('pglite:')) {
    const { db, pglite } = await openPglite(url.slice('pglite:'.length));
    return {
      db,
      poolUse: () => ({ total: 1, idle: 0, waiting: 0 }), // one in-process session
      prismaAdapter: async () => {
        const { PrismaPGlite } = await import('pglite-prisma-adapter');
        return new PrismaPGlite(pglite);
      },
    };
  }
  const { db, pool } = openPostgres(url, opts);
  return {
    db,
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    prismaAdapter: async () => {
      const { PrismaPg } = await import('@prisma/adapter-pg');
      return new PrismaPg(pool);
    },
  };
}
