import { msg, type Endpoint } from '@svc/contract';
import { NotFoundError } from '@svc/errors';
import type { Identity } from '@svc/ids';
import type { CoreAnswer, CoreClient } from '../core-client';
import { identityForCall } from './identity';
import { planRoute, type Topology } from './route';

/** One call as the federation layer receives it from the router. */
export interface RoutedCall {
  endpoint: Endpoint;
  endpointId: string;
  options: Readonly<Record<string, unknown>>;
  identity: Identity;
  remote: string | null;
  requestId: string;
}

/**
 * The layer between the router and the clusters: decides where a call goes (planRoute) and
 * sends it there, to a core of this deployment over its pool.
 */
export class Federation {
  private readonly topology: Topology;

  constructor(
    home: string,
    private readonly cores: ReadonlyMap<string, CoreClient>,
  ) {
    this.topology = { home, cores: new Set(cores.keys()) };
  }

  async execute(call: RoutedCall): Promise<CoreAnswer> {
    const route = planRoute(call.endpoint, call.options, this.topology);
    if (route.kind === 'no-proxy') throw new NotFoundError(msg.noProxyForCluster(route.cluster));
    const identity = identityForCall(
      call.identity,
      call.endpoint,
      call.remote,
      route.cluster,
      this.topology.home,
    );
    const body = JSON.stringify({ identity, options: call.options });
    return this.cores.get(route.cluster)!.call(call.endpointId, body, call.requestId);
  }
}
