import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Config, ClusterConfig } from '@svc/config';
import type { BlockStore } from '@svc/volumes';
import type { OtherClusters } from './blocks/other-clusters';
import type { Authenticator } from './auth/authenticate';
import type { CoreClient } from './core-client';
import type { Federation } from './federation/federation';
import type { Identities } from './federation/identities';
import type { Forwarding } from './federation/pass-through';

export interface GatewayDeps {
  config: Readonly<Config>;
  /** The cluster the gateway serves: its root token, limits and defaults apply. */
  home: Readonly<ClusterConfig>;
  /** A client per cluster core of this deployment. */
  cores: ReadonlyMap<string, CoreClient>;
  federation: Federation;
  /** Who a token is on a cluster of this deployment (auth.md §3 as that cluster applies it). */
  identities: Identities;
  /** Whole-request pass-through to another deployment's gateway. */
  forward: (req: IncomingMessage, res: ServerResponse, f: Forwarding) => Promise<void>;
  auth: Authenticator;
  log: Logger;
  /** The home cluster's volumes: the block service's store (storage.md §4). */
  blocks: BlockStore;
  /** Blocks of other clusters: siblings' volumes, other deployments' block services (§7). */
  otherClusters: OtherClusters;
}
