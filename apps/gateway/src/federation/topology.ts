import type { Config, RemoteClusterConfig } from '@svc/config';

/**
 * Which clusters this gateway can reach and how (federation.md §1): `home` answers local
 * calls; `cores` are the clusters of this deployment (called without an HTTP hop); a cluster
 * routable from C is one in C's RemoteClusters with Proxy true. Pure data, from the config.
 */
export interface Topology {
  home: string;
  cores: ReadonlySet<string>;
  /** cluster → its RemoteClusters entries that are routable (Proxy, not itself). */
  remotes: ReadonlyMap<string, ReadonlyMap<string, RemoteClusterConfig>>;
}

export function topologyOf(config: Readonly<Config>): Topology {
  const remotes = new Map<string, Map<string, RemoteClusterConfig>>();
  for (const [id, cluster] of Object.entries(config.Clusters)) {
    const routable = Object.entries(cluster.RemoteClusters).filter(
      ([rid, r]) => r.Proxy && rid !== id,
    );
    remotes.set(id, new Map(routable));
  }
  return {
    home: config.Gateway.HomeCluster,
    cores: new Set(Object.keys(config.Clusters)),
    remotes,
  };
}

/** Can `from` send calls to `to` (local, or routable from it)? */
export const reaches = (t: Topology, from: string, to: string): boolean =>
  from === to || (t.remotes.get(from)?.has(to) ?? false);

/** Federation is enabled at home when at least one remote is routable (federation.md §1). */
export const federationEnabled = (t: Topology): boolean => (t.remotes.get(t.home)?.size ?? 0) > 0;

/** `<Scheme>://<Host>` of `to` as seen from `from`, for clusters reached over HTTP. */
export function gatewayUrlOf(t: Topology, from: string, to: string): string | null {
  const entry = t.remotes.get(from)?.get(to);
  return entry ? `${entry.Scheme}://${entry.Host}` : null;
}
