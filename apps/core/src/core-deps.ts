import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';
import type { Db } from './db/db';
import type { DatabaseOutage } from './db/outage';

/** What a running core is made of; handed to the app and every service. */
export interface CoreDeps {
  cluster: Readonly<ClusterConfig>;
  db: Db;
  /** Key that checks the gateway's signature on each request. */
  proofKey: string;
  log: Logger;
  /** This process's view of its database's availability (one log line per outage). */
  outage: DatabaseOutage;
}
