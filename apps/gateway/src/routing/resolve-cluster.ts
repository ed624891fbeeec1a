import { convertParam, type Endpoint } from '@svc/contract';
import { clusterOf } from '@svc/ids';

/**
 * The cluster that answers a call (federation.md §2): the uuid's cluster for calls on one
 * object, `cluster_id` for create and the rest, otherwise the home cluster.
 */
export function resolveCluster(
  endpoint: Endpoint,
  path: Readonly<Record<string, string>>,
  params: Readonly<Record<string, unknown>>,
  home: string,
): string {
  if (endpoint.routing === 'uuid') {
    return clusterOf(path['uuid'] ?? '') ?? home;
  }
  if (endpoint.routing === 'local') return home;
  const clusterId = convertParam('cluster_id', 'string', params['cluster_id']);
  return typeof clusterId === 'string' && clusterId !== '' ? clusterId : home;
}
