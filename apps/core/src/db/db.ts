import type { Query } from '@svc/list-engine';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** A statement: text with `$n` placeholders and its values; `name` prepares it once per session. */
export interface Statement extends Query {
  name?: string;
  /**
   * Planned with this call's values every time, never prepared: for statements whose best plan
   * depends on how many rows a parameter selects (a generic plan assumes an average count).
   */
  custom?: boolean;
}

/**
 * The one database interface the core uses, over node-postgres or embedded PGlite.
 * Inside `transaction`, use only the `tx` handed to the callback.
 */
export interface Db {
  readonly kind: 'postgres' | 'pglite';
  query<T = Record<string, unknown>>(statement: Statement): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  /** Commits when `fn` resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` while holding the database-wide advisory lock `key`, which every process on the
   * same database sees; resolves `{ ran: false }` at once when another session holds it. The
   * lock goes with the session if the process dies.
   */
  withSessionLock<T>(
    key: bigint,
    fn: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }>;
  /**
   * The same database for one caller (a token): its sessions come from the caller's share of
   * the pool (db/fair-share.ts). Closing it closes nothing.
   */
  forCaller(caller: string): Db;
  close(): Promise<void>;
}

export const statement = (text: string, values: unknown[] = [], name?: string): Statement =>
  name ? { text, values, name } : { text, values };
