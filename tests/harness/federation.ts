import { createServer } from 'node:net';
import pino from 'pino';
import { SvcClient } from '@svc/client';
import { builtInUuids } from '@svc/contract';
import { validateConfig } from '@svc/config';
import { randomAlnum } from '@svc/ids';
import { startDeployment, type RunningDeployment } from '@svc/launcher';
import { createClusterDatabase } from './database-target';

/**
 * Several clusters in one of the two deployment shapes of federation.md §1, for tests that must
 * hold in both:
 * - `one-gateway`: one deployment whose Clusters hold them all, behind one gateway (HomeCluster
 *   the first); every client talks to that gateway;
 * - `separate`: one deployment per cluster, each with its own gateway and database, joined by
 *   RemoteClusters entries that name the other gateways.
 */
export type Shape = 'one-gateway' | 'separate';
export const SHAPES: readonly Shape[] = ['one-gateway', 'separate'];

export interface Federated {
  shape: Shape;
  ids: string[];
  /** The gateway a user of `cluster` uses: its own (separate), or the one gateway. */
  gatewayOf(cluster: string): string;
  /** A client of that gateway with the given token (none: no token). */
  clientAt(cluster: string, token?: string | null): SvcClient;
  /** A cluster's own root token, v2 form (root on its own cluster only). */
  rootOf(cluster: string): SvcClient;
  rootToken(cluster: string): string;
  deployments: RunningDeployment[];
  close(): Promise<void>;
}

export interface FederationOptions {
  /** Changes one cluster's raw config section before validation. */
  configure?: (clusterId: string, section: Record<string, any>) => void;
  /** Where every core and gateway logs (silent unless given). */
  logger?: pino.Logger;
}

const silent = pino({ level: process.env['SVC_TEST_LOG'] ?? 'silent' });

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function clusterSection(
  id: string,
  url: string,
  token: string,
  remotes: Record<string, unknown>,
  opts: FederationOptions,
): Record<string, unknown> {
  const section: Record<string, any> = {
    SystemRootToken: token,
    Database: { URL: url },
    Core: { Listen: '127.0.0.1:0' },
    Login: { Test: { Enable: true }, RemoteTokenRefresh: 300 },
    RemoteClusters: remotes,
  };
  opts.configure?.(id, section);
  return section;
}

/** Starts the clusters in the given shape, each on its own fresh database. */
export async function startFederation(
  shape: Shape,
  ids: string[],
  opts: FederationOptions = {},
): Promise<Federated> {
  const databases = await Promise.all(ids.map(() => createClusterDatabase()));
  const tokens = Object.fromEntries(ids.map((id) => [id, randomAlnum(40)]));
  const ports = Object.fromEntries(
    await Promise.all(ids.map(async (id) => [id, await freePort()])),
  );
  const host = (id: string) => `127.0.0.1:${shape === 'separate' ? ports[id] : ports[ids[0]!]}`;
  const remotesOf = (id: string) =>
    Object.fromEntries(
      ids
        .filter((r) => r !== id)
        .map((r) => [r, { Host: host(r), Scheme: 'http', Proxy: true, ActivateUsers: true }]),
    );
  const section = (id: string, i: number) =>
    clusterSection(id, databases[i]!.url, tokens[id]!, remotesOf(id), opts);
  const configs =
    shape === 'one-gateway'
      ? [
          {
            Gateway: { Listen: host(ids[0]!), HomeCluster: ids[0]! },
            Clusters: Object.fromEntries(ids.map((id, i) => [id, section(id, i)])),
          },
        ]
      : ids.map((id, i) => ({
          Gateway: { Listen: host(id), HomeCluster: id },
          Clusters: { [id]: section(id, i) },
        }));
  const deployments: RunningDeployment[] = [];
  const dropAll = () => Promise.all(databases.map((d) => d.drop().catch(() => undefined)));
  try {
    for (const raw of configs) {
      deployments.push(
        await startDeployment(validateConfig(raw), {
          core: opts.logger ?? silent,
          gateway: opts.logger ?? silent,
        }),
      );
    }
  } catch (err) {
    await Promise.all(deployments.map((d) => d.close()));
    await dropAll();
    throw err;
  }
  const clients: SvcClient[] = [];
  const gatewayOf = (id: string) => `http://${host(id)}`;
  const clientAt = (id: string, token: string | null = null) => {
    const c = new SvcClient(gatewayOf(id), token);
    clients.push(c);
    return c;
  };
  const rootToken = (id: string) => `v2/${builtInUuids(id).rootToken}/${tokens[id]!}`;
  return {
    shape,
    ids,
    gatewayOf,
    clientAt,
    rootOf: (id) => clientAt(id, rootToken(id)),
    rootToken,
    deployments,
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await Promise.all(deployments.map((d) => d.close()));
      await dropAll();
    },
  };
}

/** One federation for the whole test file: started before, closed after. */
export function useFederation(
  shape: Shape,
  ids: string[],
  opts: FederationOptions = {},
): { readonly current: Federated } {
  const holder: { current?: Federated } = {};
  beforeAll(async () => {
    holder.current = await startFederation(shape, ids, opts);
  }, 90_000);
  afterAll(async () => {
    await holder.current?.close();
  }, 60_000);
  return {
    get current() {
      if (!holder.current) throw new Error('federation not started');
      return holder.current;
    },
  };
}

/** A user of `cluster` made by its root, active, with a token: `v2/<uuid>/<secret>`. */
export async function federatedUser(
  f: Federated,
  cluster: string,
  attrs: Record<string, unknown> = {},
): Promise<{ uuid: string; token: string; tokenUuid: string; at: (c: string) => SvcClient }> {
  const root = f.rootOf(cluster);
  const user = await root.api.users.create({
    attributes: { email: `fed-${randomAlnum(8)}@${cluster}.example`, is_active: true, ...attrs },
    cluster_id: cluster,
  });
  const token = await root.api.apiClientAuthorizations.create({
    attributes: { owner_uuid: user.uuid },
    cluster_id: cluster,
  });
  const v2 = `v2/${token.uuid}/${token.api_token}`;
  return { uuid: user.uuid, token: v2, tokenUuid: token.uuid, at: (c) => f.clientAt(c, v2) };
}

/** The database of a cluster's core, wherever it runs (to look at what a cluster stored). */
export function databaseOf(f: Federated, cluster: string) {
  for (const d of f.deployments) {
    const core = d.cores.find((c) => c.clusterId === cluster);
    if (core) return core.db;
  }
  throw new Error(`no core for ${cluster}`);
}
