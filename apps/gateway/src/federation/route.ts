import { groups, isUuidOf, type Endpoint } from '@svc/contract';
import { clusterOf } from '@svc/ids';
import { reaches, type Topology } from './topology';

/**
 * Where one call goes (federation.md §2), as a value that code and tests can look at:
 * - `core`: a cluster of this deployment answers it (the home cluster or a sibling);
 * - `remote`: another deployment's gateway answers it (the whole request is passed through);
 * - `no-proxy`: nobody can (404 "no proxy available for cluster <id>");
 * - `not-found`: a forwarded call naming a uuid of a cluster not behind this gateway (404);
 * - `list`: a list at home that may be federated (§5 decides once the options are typed);
 * - `pdh`: a collection by portable data hash: home first, then every routable remote.
 */
export type Route =
  | { kind: 'core'; cluster: string }
  | { kind: 'remote'; cluster: string }
  | { kind: 'no-proxy'; cluster: string }
  | { kind: 'not-found' }
  | { kind: 'list' }
  | { kind: 'pdh' };

/** What routing reads of a call: its operation and the raw parameters that name a cluster. */
export interface RoutingFacts {
  endpoint: Endpoint;
  /** The `{uuid}` of calls on one object (a uuid, or a PDH for collections). */
  uuid: string | null;
  /** `cluster_id`, `""` counting as absent. */
  clusterId: string | null;
  forwardedFor: string | null;
  bypassFederation: boolean;
}

const PDH = /^[0-9a-f]{32}\+[0-9]+/;
const isGroupUuidText = (uuid: string): boolean => isUuidOf(groups, uuid);

/** The cluster a call names: its uuid's for calls on one object, else `cluster_id`. */
function namedCluster(f: RoutingFacts, home: string): string {
  if (f.endpoint.routing === 'uuid') return (f.uuid ? clusterOf(f.uuid) : null) ?? home;
  if (f.endpoint.routing === 'group_uuid') {
    // groups/contents: a group goes to its cluster; a user uuid or none is answered here.
    if (f.clusterId !== null) return f.clusterId;
    return f.uuid && isGroupUuidText(f.uuid) ? (clusterOf(f.uuid) ?? home) : home;
  }
  if (f.endpoint.routing === 'local') return home;
  return f.clusterId ?? home;
}

const toward = (t: Topology, cluster: string): Route =>
  t.cores.has(cluster)
    ? { kind: 'core', cluster }
    : reaches(t, t.home, cluster)
      ? { kind: 'remote', cluster }
      : { kind: 'no-proxy', cluster };

/** Federation.md §2 as one pure function. */
export function planRoute(f: RoutingFacts, t: Topology): Route {
  const named = namedCluster(f, t.home);
  if (f.forwardedFor !== null) {
    // Never forwarded again: a cluster behind this gateway, else answered here.
    if (t.cores.has(named)) return { kind: 'core', cluster: named };
    return f.endpoint.routing === 'uuid' && named !== t.home
      ? { kind: 'not-found' }
      : { kind: 'core', cluster: t.home };
  }
  if (f.bypassFederation) return { kind: 'core', cluster: t.home };
  if (f.endpoint.routing === 'uuid' && f.uuid !== null && PDH.test(f.uuid)) {
    return f.endpoint.resource === 'collections' && f.endpoint.name === 'get'
      ? { kind: 'pdh' }
      : { kind: 'core', cluster: t.home };
  }
  if (f.endpoint.routing === 'list' && f.clusterId === null) return { kind: 'list' };
  return named === t.home ? { kind: 'core', cluster: t.home } : toward(t, named);
}
