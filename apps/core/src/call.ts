import type { ClusterConfig } from '@svc/config';
import type { Endpoint } from '@svc/contract';
import type { Identity } from '@svc/ids';
import type { Db } from './db/db';

/** The user a request acts as, as this core knows it. */
export interface Caller {
  uuid: string;
  isAdmin: boolean;
  isActive: boolean;
  identity: Identity;
}

/** Everything a handler needs about one API call; nothing about HTTP. */
export interface Call {
  cluster: Readonly<ClusterConfig>;
  db: Db;
  caller: Caller;
  endpoint: Endpoint;
  /**
   * The call's typed options (contract api/types.ts, OptionsOf): parameters already converted
   * by their declared types, absent ones left out, and a create's or update's `attributes`.
   */
  options: Readonly<Record<string, unknown>>;
  requestId: string;
  /** Per-call scratch space shared by a resource's hooks (e.g. a token secret made on create). */
  locals: Record<string, unknown>;
}

export interface Reply {
  status?: number;
  body: unknown;
}

export type Handler = (call: Call) => Promise<Reply>;

/** A boolean option: true only when given and true (the converted value; absent means false). */
export const flagOption = (call: Call, name: string): boolean => call.options[name] === true;

/** A string option (`uuid`, `cluster_id`, ...), '' when absent or null. */
export const stringOption = (call: Call, name: string): string => {
  const v = call.options[name];
  return typeof v === 'string' ? v : '';
};

/** An array option (`select`, `filters`, ...), undefined when absent. */
export const arrayOption = (call: Call, name: string): unknown[] | undefined => {
  const v = call.options[name];
  return Array.isArray(v) ? v : undefined;
};
