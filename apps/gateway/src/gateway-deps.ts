import type { Agent } from 'node:http';
import type { Logger } from 'pino';
import type { Config, ClusterConfig } from '@svc/config';
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
}
