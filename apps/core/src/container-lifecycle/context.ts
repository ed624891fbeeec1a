import type { ClusterConfig } from '@svc/config';
import type { Db } from '../db/db';

/** What the server's own container and request changes run with: one transaction, one "now". */
export interface Lifecycle {
  tx: Db;
  cluster: Readonly<ClusterConfig>;
  now: string;
  /** The user the changes are recorded as made by (modified_by_user_uuid). */
  actor: string;
}
