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
  /** Parameters merged from query, body and path (requests-and-errors.md §3), unconverted. */
  params: Readonly<Record<string, unknown>>;
  /** The JSON body, when there is one (bare create/update bodies come from it). */
  jsonBody: Readonly<Record<string, unknown>> | null;
  requestId: string;
  /** Per-call scratch space shared by a resource's hooks (e.g. a token secret made on create). */
  locals: Record<string, unknown>;
}

export interface Reply {
  status?: number;
  body: unknown;
}

export type Handler = (call: Call) => Promise<Reply>;
