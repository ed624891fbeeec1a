import pino from 'pino';
import { SvcClient } from '@svc/client';
import { builtInUuids } from '@svc/contract';
import { validateConfig, type Config } from '@svc/config';
import { randomAlnum } from '@svc/ids';
import { startDeployment, type RunningDeployment } from '@svc/launcher';
import { createClusterDatabase } from './database-target';

export interface TestCluster {
  id: string;
  rootToken: string;
  coreUrl: string;
}

export interface TestDeployment {
  /** The gateway's base URL. */
  url: string;
  config: Readonly<Config>;
  clusters: Record<string, TestCluster>;
  home: TestCluster;
  /** A client with the home cluster's root token. */
  root: SvcClient;
  /**
   * A client with a cluster's own root token, as `v2/<id>-gj3su-000000000000000/<secret>`: a
   * root token is root only on its own cluster (another cluster would validate it at its issuer).
   */
  rootOf(clusterId: string): SvcClient;
  /** A client with any token (or none). */
  client(token?: string | null): SvcClient;
  running: RunningDeployment;
  close(): Promise<void>;
}

/** The home cluster's running core (its database, jobs): for tests that act beside the API. */
export const homeCore = (d: TestDeployment) =>
  d.running.cores.find((c) => c.clusterId === d.home.id)!;

export interface DeploymentOptions {
  clusters?: string[];
  home?: string;
  /** `pglite` runs every cluster on the embedded database, whatever the machine has. */
  database?: 'default' | 'pglite';
  /** Changes one cluster's raw config section before validation. */
  configure?: (clusterId: string, section: Record<string, any>) => void;
  /** Extra keys of the Gateway section (RemoteTimeout, …). */
  gateway?: Record<string, unknown>;
  /** Where the servers log (silent unless SVC_TEST_LOG says otherwise). */
  logger?: pino.Logger;
}

// SVC_TEST_LOG=error shows what the servers log (they are silent otherwise).
const silent = pino({ level: process.env['SVC_TEST_LOG'] ?? 'silent' });

/** Starts N cluster cores, each on its own fresh database, and one gateway in front of them. */
export async function startTestDeployment(opts: DeploymentOptions = {}): Promise<TestDeployment> {
  const ids = opts.clusters ?? ['home1'];
  const home = opts.home ?? ids[0]!;
  const databases = await Promise.all(ids.map(() => createClusterDatabase(opts.database)));
  const raw = {
    Gateway: { Listen: '127.0.0.1:0', HomeCluster: home, ...opts.gateway },
    Clusters: Object.fromEntries(
      ids.map((id, i) => {
        const section: Record<string, unknown> = {
          SystemRootToken: randomAlnum(40),
          Database: { URL: databases[i]!.url },
          Core: { Listen: '127.0.0.1:0' },
          Login: { Test: { Enable: true } },
        };
        opts.configure?.(id, section);
        return [id, section];
      }),
    ),
  };
  const dropAll = () => Promise.all(databases.map((d) => d.drop().catch(() => undefined)));
  let running: RunningDeployment;
  try {
    const log = opts.logger ?? silent;
    running = await startDeployment(validateConfig(raw), { core: log, gateway: log });
  } catch (err) {
    await dropAll();
    throw err;
  }
  const config = validateConfig(raw);
  const clusters = Object.fromEntries(
    running.cores.map((c) => [
      c.clusterId,
      { id: c.clusterId, rootToken: config.Clusters[c.clusterId]!.SystemRootToken, coreUrl: c.url },
    ]),
  );
  const url = running.gateway.url;
  const clients: SvcClient[] = [];
  const client = (token: string | null = null) => {
    const c = new SvcClient(url, token);
    clients.push(c);
    return c;
  };
  return {
    url,
    config,
    clusters,
    home: clusters[home]!,
    root: client(clusters[home]!.rootToken),
    rootOf: (id) => client(`v2/${builtInUuids(id).rootToken}/${clusters[id]!.rootToken}`),
    client,
    running,
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await running.close();
      await dropAll();
    },
  };
}

const running = new Map<string, TestDeployment>();

/** The deployment a client talks to (by its gateway URL), for helpers given only a client. */
export function deploymentAt(url: string): TestDeployment {
  const d = running.get(url);
  if (!d) throw new Error(`no test deployment at ${url}`);
  return d;
}

/** One deployment for the whole test file: started before, closed after. */
export function useDeployment(opts: DeploymentOptions = {}): { readonly current: TestDeployment } {
  const holder: { current?: TestDeployment } = {};
  beforeAll(async () => {
    holder.current = await startTestDeployment(opts);
    running.set(holder.current.url, holder.current);
  }, 60_000);
  afterAll(async () => {
    if (holder.current) running.delete(holder.current.url);
    await holder.current?.close();
  }, 60_000);
  return {
    get current() {
      if (!holder.current) throw new Error('deployment not started');
      return holder.current;
    },
  };
}
