import type { Agent } from 'node:http';
import type { Logger } from 'pino';
import type { Config, ClusterConfig } from '@svc/config';
import type { BlockStore } from '@svc/volumes';
import type { Authenticator } from './auth/authenticate';
import type { CoreTarget } from './core-client';

export interface GatewayDeps {
  config: Readonly<Config>;
  /** The cluster the gateway serves: its root token, limits and defaults apply. */
  home: Readonly<ClusterConfig>;
  cores: ReadonlyMap<string, CoreTarget>;
  agent: Agent;
  auth: Authenticator;
  log: Logger;
  /** The home cluster's volumes: the block service's store (storage.md §4). */
  blocks: BlockStore;
}
