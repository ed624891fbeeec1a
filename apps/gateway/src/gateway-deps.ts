import type { Agent } from 'node:http';
import type { Logger } from 'pino';
import type { ClusterConfig, Config } from '@svc/config';
import type { Authenticator } from './auth/authenticate';

/** A cluster core this gateway forwards to directly (same deployment). */
export interface CoreTarget {
  clusterId: string;
  url: string;
  proofKey: string;
  cluster: Readonly<ClusterConfig>;
}

export interface GatewayDeps {
  config: Readonly<Config>;
  /** The cluster the gateway serves: its root token, limits and defaults apply. */
  home: Readonly<ClusterConfig>;
  cores: ReadonlyMap<string, CoreTarget>;
  agent: Agent;
  auth: Authenticator;
  log: Logger;
}
