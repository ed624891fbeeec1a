import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomAlnum } from '@svc/ids';
import { keptValue, newClusterId, newRootToken } from './data-dir';
import { ConfigError } from './errors';
import {
  buildConfig,
  parseConfigText,
  singleClusterConfig,
  type ConfigEnv,
  type SingleClusterDefaults,
} from './load';
import type { Config } from './schema';
import { splitListen } from './validate';

const DEV_USER = 'dev';
const DEV_EMAIL = 'dev@localhost';

export interface LoadedConfig {
  config: Readonly<Config>;
  /** What to tell the person who started the server. */
  notes: string[];
}

function fromFile(path: string, env: ConfigEnv): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError('SVC_CONFIG', `cannot read ${path}: ${(e as Error).message}`);
  }
  return {
    config: buildConfig(parseConfigText(text, path), env),
    notes: [`configuration: ${path}`],
  };
}

/** The variables that place the embedded default's gateway. */
const listenEnv = (env: ConfigEnv): ConfigEnv => ({
  PORT: env.PORT,
  HOST: env.HOST,
  SVC_LISTEN: env.SVC_LISTEN,
});

/**
 * The zero-setup default: one cluster, its id and root token generated once and kept in the
 * data directory, and an embedded PostgreSQL there unless DATABASE_URL names a server.
 */
function embeddedDefault(dataDir: string, env: ConfigEnv): LoadedConfig {
  const notes: string[] = [];
  const clusterId = env.SVC_CLUSTER_ID ?? keptValue(dataDir, 'cluster-id', newClusterId).value;
  let rootToken = env.SVC_SYSTEM_ROOT_TOKEN;
  if (rootToken === undefined) {
    const kept = keptValue(dataDir, 'root-token', newRootToken);
    rootToken = kept.value;
    notes.push(`root token: in ${kept.file}`);
  } else {
    notes.push('root token: from SVC_SYSTEM_ROOT_TOKEN');
  }
  const databaseUrl = env.DATABASE_URL ?? `pglite:${join(dataDir, 'db', clusterId)}`;
  notes.push(
    `database: ${env.DATABASE_URL ? 'DATABASE_URL' : `embedded PostgreSQL in ${join(dataDir, 'db', clusterId)}`}`,
  );
  const blocksDir = join(dataDir, 'blocks');
  notes.push(`blocks: ${blocksDir}`);
  const base = { clusterId, systemRootToken: rootToken, databaseUrl, blocksDir };
  const raw = singleClusterConfig({ ...base, ...developmentLogin(dataDir, base, env, notes) });
  const management = keptValue(dataDir, 'management-token', newRootToken);
  notes.push(`management token (/_health, /metrics): in ${management.file}`);
  const home = (raw['Clusters'] as Record<string, Record<string, unknown>>)[clusterId]!;
  home['ManagementToken'] = management.value;
  // containers run on this machine out of the box (execution.md §1)
  home['Containers'] = { Dispatch: { Backend: 'local' } };
  return { config: buildConfig(raw, listenEnv(env)), notes };
}

/**
 * So that a newcomer can log in at once: one active test-provider user `dev` whose password is
 * generated once and kept (0600) in the data directory, and the gateway's own origins as
 * trusted return_to targets (the login page can then send the browser back to the API).
 */
function developmentLogin(
  dataDir: string,
  base: SingleClusterDefaults,
  env: ConfigEnv,
  notes: string[],
) {
  const password = keptValue(dataDir, 'dev-password', () => randomAlnum(24));
  notes.push(`development login: user "${DEV_USER}" (${DEV_EMAIL}), password in ${password.file}`);
  const { port } = splitListen(
    buildConfig(singleClusterConfig(base), listenEnv(env)).Gateway.Listen,
  );
  return {
    testUsers: { [DEV_USER]: { Email: DEV_EMAIL, Password: password.value } },
    trustedClients: port === 0 ? [] : [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
    newUsersAreActive: true,
  };
}

export function loadDeploymentConfig(env: ConfigEnv & { SVC_DATA_DIR?: string }): LoadedConfig {
  if (env.SVC_CONFIG) return fromFile(env.SVC_CONFIG, env);
  return embeddedDefault(env.SVC_DATA_DIR ?? './data', env);
}
