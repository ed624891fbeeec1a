import Ajv, { type ErrorObject } from 'ajv';
import { bareSecret, CLUSTER_ID_RE } from '@svc/ids';
import { ConfigError } from './errors';
import { ConfigSchema, SERVICE_NAMES, type ClusterConfig, type Config } from './schema';
import { checkStorage } from './validate-storage';

const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: false });
const validateSchema = ajv.compile(ConfigSchema);

const keyPath = (instancePath: string): string =>
  instancePath.slice(1).split('/').map(decodeURIComponent).join('.');

function toConfigError(e: ErrorObject): ConfigError {
  const base = keyPath(e.instancePath);
  const join = (k: string) => (base ? `${base}.${k}` : k);
  if (e.keyword === 'additionalProperties') {
    return new ConfigError(join(String(e.params['additionalProperty'])), 'unknown key');
  }
  if (e.keyword === 'required') {
    return new ConfigError(join(String(e.params['missingProperty'])), 'is required');
  }
  if (e.keyword === 'pattern' && base.endsWith('Token')) {
    return new ConfigError(base, 'must be at least 32 characters of [a-zA-Z0-9]');
  }
  if (e.keyword === 'pattern' && base.endsWith('AutoSetupNewUsersWithVmUUID')) {
    return new ConfigError(
      base,
      'must be a virtual machine uuid (<cluster>-2x53u-<15 characters>)',
    );
  }
  if (e.keyword === 'pattern' && base.endsWith('SMTPServer')) {
    return new ConfigError(base, 'must be host:port');
  }
  if (e.keyword === 'pattern' && base.endsWith('BlobSigningKey')) {
    return new ConfigError(base, 'must be at least 32 characters');
  }
  return new ConfigError(base || '(top level)', e.message ?? 'is invalid');
}

const LOGIN_PROVIDERS = ['OpenIDConnect', 'LDAP', 'PAM', 'Test'] as const;

function parseListen(key: string, value: string): void {
  const m = /^(.+):(\d{1,5})$/.exec(value);
  if (!m || Number(m[2]) > 65535) throw new ConfigError(key, `must be host:port, got "${value}"`);
}

function checkUrl(key: string, value: string, schemes: readonly string[]): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(key, `is not a URL: "${value}"`);
  }
  if (!schemes.includes(url.protocol.slice(0, -1))) {
    throw new ConfigError(key, `must use one of ${schemes.join(', ')}`);
  }
}

function checkCluster(id: string, c: ClusterConfig): void {
  const at = (k: string) => `Clusters.${id}.${k}`;
  if (!CLUSTER_ID_RE.test(id))
    throw new ConfigError(`Clusters.${id}`, 'cluster id must match ^[0-9a-z]{5}$');
  if (c.ClusterID !== undefined && c.ClusterID !== id) {
    throw new ConfigError(at('ClusterID'), `must equal the Clusters key "${id}"`);
  }
  c.ClusterID = id;
  c.SystemRootToken = bareSecret(c.SystemRootToken);
  c.Users.AnonymousUserToken = bareSecret(c.Users.AnonymousUserToken);
  if (c.ExternalURL !== '') checkUrl(at('ExternalURL'), c.ExternalURL, ['http', 'https']);
  for (const name of SERVICE_NAMES) {
    const url = c.Services[name].ExternalURL;
    const schemes = name === 'Websocket' ? ['ws', 'wss'] : ['http', 'https'];
    if (url !== '') checkUrl(at(`Services.${name}.ExternalURL`), url, schemes);
  }
  if (!/^(postgres|postgresql):\/\/|^pglite:.+/.test(c.Database.URL)) {
    throw new ConfigError(
      at('Database.URL'),
      'must be postgres://…, postgresql://…, or pglite:<directory>',
    );
  }
  parseListen(at('Core.Listen'), c.Core.Listen);
  const enabled = LOGIN_PROVIDERS.filter((p) => c.Login[p].Enable);
  if (enabled.length !== 1) {
    throw new ConfigError(
      at('Login'),
      `exactly one of ${LOGIN_PROVIDERS.map((p) => `${p}.Enable`).join(', ')} must be true (${enabled.length} are)`,
    );
  }
  checkStorage(id, c);
  for (const [rid] of Object.entries(c.RemoteClusters)) {
    if (!CLUSTER_ID_RE.test(rid))
      throw new ConfigError(at(`RemoteClusters.${rid}`), 'cluster id must match ^[0-9a-z]{5}$');
    if (rid === id) throw new ConfigError(at(`RemoteClusters.${rid}`), 'must not equal ClusterID');
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validates a configuration object, fills in every default, and returns it frozen.
 * Throws a ConfigError naming the first bad key.
 */
export function validateConfig(input: unknown): Readonly<Config> {
  const config = structuredClone(input ?? {}) as Config;
  if (!validateSchema(config)) throw toConfigError(validateSchema.errors![0]!);
  const ids = Object.keys(config.Clusters);
  if (ids.length === 0) throw new ConfigError('Clusters', 'at least one cluster is required');
  for (const id of ids) checkCluster(id, config.Clusters[id]!);
  if (config.Gateway.HomeCluster === '') {
    if (ids.length > 1) {
      throw new ConfigError('Gateway.HomeCluster', 'is required when there are several clusters');
    }
    config.Gateway.HomeCluster = ids[0]!;
  } else if (!ids.includes(config.Gateway.HomeCluster)) {
    throw new ConfigError(
      'Gateway.HomeCluster',
      `"${config.Gateway.HomeCluster}" is not in Clusters`,
    );
  }
  parseListen('Gateway.Listen', config.Gateway.Listen);
  joinSiblings(config);
  return deepFreeze(config);
}

/**
 * Clusters behind one gateway are routable from each other through this gateway (the
 * one-gateway deployment shape) unless a cluster's RemoteClusters says otherwise: a missing
 * entry for a sibling is added with Host = the gateway's public host, and ActivateUsers true
 * (one operator runs them all). An explicit entry, e.g. `Proxy: false`, is kept as written.
 */
function joinSiblings(config: Config): void {
  const home = config.Clusters[config.Gateway.HomeCluster]!;
  const host = home.ExternalURL !== '' ? new URL(home.ExternalURL).host : config.Gateway.Listen;
  const scheme = home.ExternalURL.startsWith('https:') ? 'https' : 'http';
  for (const [id, cluster] of Object.entries(config.Clusters)) {
    for (const sibling of Object.keys(config.Clusters)) {
      if (sibling === id || sibling in cluster.RemoteClusters) continue;
      cluster.RemoteClusters[sibling] = {
        Host: host,
        Proxy: true,
        Scheme: scheme,
        Insecure: false,
        ActivateUsers: true,
      };
    }
  }
}

/** host and port of a `host:port` listen address. */
export function splitListen(listen: string): { host: string; port: number } {
  const i = listen.lastIndexOf(':');
  return { host: listen.slice(0, i), port: Number(listen.slice(i + 1)) };
}
