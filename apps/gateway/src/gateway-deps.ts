import type { Logger } from 'pino';
import type { Config, ClusterConfig } from '@svc/config';
import type { Authenticator } from './auth/authenticate';
import type { CoreClient } from './core-client';
import type { Federation } from './federation/federation';

export interface GatewayDeps {
  config: Readonly<Config>;
  /** The cluster the gateway serves: its root token, limits and defaults apply. */
  home: Readonly<ClusterConfig>;
  /** A client per cluster core of this deployment. */
  cores: ReadonlyMap<string, CoreClient>;
  federation: Federation;
  auth: Authenticator;
  log: Logger;
}
