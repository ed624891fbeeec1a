import type { Endpoint } from '@svc/contract';
import { clusterOf } from '@svc/ids';

/**
 * Where one call goes (federation.md §2), as a value that code and tests can look at:
 * the core of a cluster behind this gateway, or nowhere (404 "no proxy available").
 */
export type Route = { kind: 'core'; cluster: string } | { kind: 'no-proxy'; cluster: string };

/** What the gateway can reach: its home cluster and every cluster whose core it serves. */
export interface Topology {
  home: string;
  cores: ReadonlySet<string>;
}

/**
 * The cluster that answers a call: the uuid's cluster for calls on one object, `cluster_id`
 * for creates, lists and the rest (`""` counts as absent), otherwise the home cluster.
 */
export function targetCluster(
  endpoint: Endpoint,
  options: Readonly<Record<string, unknown>>,
  home: string,
): string {
  if (endpoint.routing === 'uuid') {
    const uuid = options['uuid'];
    return (typeof uuid === 'string' ? clusterOf(uuid) : null) ?? home;
  }
  if (endpoint.routing === 'local') return home;
  const clusterId = options['cluster_id'];
  return typeof clusterId === 'string' && clusterId !== '' ? clusterId : home;
}

export function planRoute(
  endpoint: Endpoint,
  options: Readonly<Record<string, unknown>>,
  topology: Topology,
): Route {
  const cluster = targetCluster(endpoint, options, topology.home);
  return topology.cores.has(cluster) ? { kind: 'core', cluster } : { kind: 'no-proxy', cluster };
}
