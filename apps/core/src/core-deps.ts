import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';
import type { Db } from './db/db';

/** What a running core is made of; handed to the app and every service. */
export interface CoreDeps {
  cluster: Readonly<ClusterConfig>;
  db: Db;
  /** Key that checks the gateway's signature on each request. */
  proofKey: string;
  log: Logger;
}
