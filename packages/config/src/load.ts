import { parse as parseYaml } from 'yaml';
import { ConfigError } from './errors';
import type { Config } from './schema';
import { validateConfig } from './validate';

/** The environment variables that override a configuration (README, "Configuration"). */
export interface ConfigEnv {
  SVC_CONFIG?: string;
  SVC_CLUSTER_ID?: string;
  SVC_SYSTEM_ROOT_TOKEN?: string;
  DATABASE_URL?: string;
  PORT?: string;
  /** The gateway's host (0.0.0.0 in a container); the port stays. */
  HOST?: string;
  /** The gateway's whole `host:port`; PORT, if also set, replaces its port. */
  SVC_LISTEN?: string;
}

/** What a single-cluster deployment needs when there is no config file. */
export interface SingleClusterDefaults {
  clusterId: string;
  systemRootToken: string;
  databaseUrl: string;
  /** Test-provider accounts for the development login. */
  testUsers?: Record<string, { Email: string; Password: string }>;
  /** Login.TrustedClients: origins a login may return to. */
  trustedClients?: string[];
  /** Users.NewUsersAreActive. */
  newUsersAreActive?: boolean;
  /** One Directory volume there, and DefaultReplication 1 (storage.md §3). */
  blocksDir?: string;
}

const embeddedStorage = (blocksDir: string | undefined): Record<string, unknown> =>
  blocksDir === undefined
    ? {}
    : {
        Collections: { DefaultReplication: 1 },
        Volumes: { local: { Driver: 'Directory', DriverParameters: { Root: blocksDir } } },
      };

export function singleClusterConfig(d: SingleClusterDefaults): Record<string, unknown> {
  return {
    Clusters: {
      [d.clusterId]: {
        SystemRootToken: d.systemRootToken,
        Database: { URL: d.databaseUrl },
        Login: {
          Test: { Enable: true, Users: d.testUsers ?? {} },
          TrustedClients: d.trustedClients ?? [],
        },
        Users: { NewUsersAreActive: d.newUsersAreActive ?? false },
        ...embeddedStorage(d.blocksDir),
      },
    },
  };
}

export function parseConfigText(text: string, source: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ConfigError(source, `is not valid YAML: ${(e as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(source, 'must hold a mapping at the top level');
  }
  return doc as Record<string, unknown>;
}

type Raw = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Applies the environment overrides to the home (or only) cluster of a raw config. */
export function applyEnvOverrides(raw: Record<string, unknown>, env: ConfigEnv): Raw {
  const config: Raw = structuredClone(raw);
  const clusters: Raw = (config['Clusters'] ??= {});
  const ids = Object.keys(clusters);
  const homeId: string | undefined =
    config['Gateway']?.['HomeCluster'] || (ids.length === 1 ? ids[0] : undefined);
  if (env.SVC_CLUSTER_ID) {
    if (ids.length > 1)
      throw new ConfigError('SVC_CLUSTER_ID', 'only applies to a single-cluster deployment');
    const { ClusterID: _replaced, ...section }: Raw = (ids[0] ? clusters[ids[0]] : undefined) ?? {};
    config['Clusters'] = { [env.SVC_CLUSTER_ID]: section };
    if (config['Gateway']?.['HomeCluster']) config['Gateway']['HomeCluster'] = env.SVC_CLUSTER_ID;
  }
  const home = config['Clusters'][env.SVC_CLUSTER_ID ?? homeId ?? ''];
  if (home) {
    if (env.SVC_SYSTEM_ROOT_TOKEN) home['SystemRootToken'] = env.SVC_SYSTEM_ROOT_TOKEN;
    if (env.DATABASE_URL) home['Database'] = { ...home['Database'], URL: env.DATABASE_URL };
  }
  applyListenOverrides(config, env);
  return config;
}

/** SVC_LISTEN, then HOST and PORT, over `Gateway.Listen`. */
function applyListenOverrides(config: Raw, env: ConfigEnv): void {
  if (!env.PORT && !env.HOST && !env.SVC_LISTEN) return;
  const gateway: Raw = (config['Gateway'] ??= {});
  const listen: string = env.SVC_LISTEN || (gateway['Listen'] ?? '127.0.0.1:8000');
  const at = listen.lastIndexOf(':');
  if (at < 0) throw new ConfigError('SVC_LISTEN', `must be host:port, got "${listen}"`);
  let host = listen.slice(0, at);
  let port = listen.slice(at + 1);
  if (env.HOST) host = env.HOST;
  if (env.PORT) {
    if (!/^\d{1,5}$/.test(env.PORT))
      throw new ConfigError('PORT', `must be a port number, got "${env.PORT}"`);
    port = env.PORT;
  }
  gateway['Listen'] = `${host}:${port}`;
}

/** Builds the validated configuration from a raw document and the environment. */
export function buildConfig(raw: Record<string, unknown>, env: ConfigEnv): Readonly<Config> {
  return validateConfig(applyEnvOverrides(raw, env));
}
