import type { Config } from '@svc/config';
import {
  anonymousIdentity,
  endpointId,
  msg,
  resourceByType,
  type Endpoint,
  type ParsedRequest,
} from '@svc/contract';
import { NotFoundError, NotLoggedInError } from '@svc/errors';
import { clusterOf, parseV2Token, type Identity } from '@svc/ids';
import type { CoreAnswer, CoreClient } from '../core-client';
import type { Caller, ClusterCalls } from './cluster-calls';
import { fanOut } from './fan-out';
import { planList } from './federated-list';
import type { CoreJson, Identities } from './identities';
import { knownRuntimeToken, withFederatedRuntimeToken } from './container-requests';
import { contactError } from './remote-gateway';
import { identityForCall } from './identity';
import type { Forwarding } from './pass-through';
import { findByPdh } from './pdh';
import { carriesManifests, fromCluster, toCluster } from './manifests';
import { planRoute, type Route, type RoutingFacts } from './route';
import { tokenFor } from './salting';
import { gatewayUrlOf, type Topology } from './topology';

/** One call, typed, on its way to the clusters. */
export interface TypedCall {
  endpoint: Endpoint;
  endpointId: string;
  options: Readonly<Record<string, unknown>>;
  remote: string | null;
  /** What the core may record or answer from the request itself (token records, keep_services). */
  request?: { clientAddress?: string; origin?: string };
}

/** Who is calling, as far as this gateway had to find out before sending the call on. */
export interface Admission {
  /** null: another deployment's gateway checks the token (a pass-through). */
  identity: Identity | null;
  /** The caller as home knows them, when home checked the token (for remote routes). */
  homeIdentity?: Identity;
  caller: Caller;
}

const CREATE_REQUEST = 'svc.container_requests.create';

/**
 * What became of a call: a core's answer to stream back, an answer made here (as a value, or as
 * JSON text already written), or a forward.
 */
export type Outcome =
  | { kind: 'core'; answer: CoreAnswer }
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'text'; status: number; text: string }
  | { kind: 'forward'; forwarding: Omit<Forwarding, 'body'> };

export interface FederationDeps {
  config: Readonly<Config>;
  topology: Topology;
  cores: ReadonlyMap<string, CoreClient>;
  identities: Identities;
  calls: ClusterCalls;
  coreJson: CoreJson;
}

const TRUE = new Set<unknown>([true, 'true', 1, '1']);
const stringParam = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' && v !== 'null' ? v : null;

/** The raw facts routing reads (before parameters are typed: 401 and 403 come first). */
export function routingFacts(p: ParsedRequest): RoutingFacts {
  return {
    endpoint: p.endpoint,
    uuid: stringParam(p.params['uuid']),
    clusterId: stringParam(p.params['cluster_id']),
    forwardedFor: p.forwardedFor,
    bypassFederation: TRUE.has(p.params['bypass_federation']),
  };
}

/** Is the token this cluster's to check (a bare secret, or a v2 token issued at home)? */
const isHomeToken = (token: string, home: string): boolean => {
  const v2 = parseV2Token(token);
  return v2 === null || clusterOf(v2.uuid) === home;
};

/**
 * The layer between the router and the clusters (federation.md): plans where a call goes,
 * finds out who the caller is there, and carries the call out — on a core of this deployment,
 * through another deployment's gateway, or across several clusters for a federated list.
 */
export class Federation {
  constructor(private readonly deps: FederationDeps) {}

  route(p: ParsedRequest): Route {
    return planRoute(routingFacts(p), this.deps.topology);
  }

  /** 401 here: the token checked on the cluster that will act on it. */
  async admit(p: ParsedRequest, route: Route, requestId: string): Promise<Admission> {
    const home = this.deps.topology.home;
    const target = route.kind === 'core' ? route.cluster : home;
    if (p.endpoint.public) {
      return { identity: anonymousIdentity(target), caller: { token: null, requestId } };
    }
    const token = p.token;
    const createsRequest = endpointId(p.endpoint) === CREATE_REQUEST;
    if (route.kind === 'remote' && token && !isHomeToken(token, home) && !createsRequest) {
      return { identity: null, caller: { token, requestId } };
    }
    const atHome =
      target === home || (token !== null && parseV2Token(token) === null) || createsRequest
        ? await this.deps.identities.atHome(token, target === home ? p.remote : null)
        : null;
    const caller: Caller = {
      token,
      requestId,
      ...(atHome?.v2Form ? { v2Form: atHome.v2Form } : {}),
    };
    if (route.kind === 'remote') {
      const checked = atHome ?? (await this.deps.identities.atHome(token, null));
      return { identity: null, homeIdentity: checked.identity, caller };
    }
    if (target === home) return { identity: atHome!.identity, caller };
    const salted = token === null ? null : tokenFor(target, home, token, caller.v2Form);
    const identity = await this.deps.identities.forCluster(target, salted, p.remote);
    return { identity, caller };
  }

  async execute(route: Route, call: TypedCall, admission: Admission): Promise<Outcome> {
    const { topology } = this.deps;
    switch (route.kind) {
      case 'core':
        if (route.cluster !== topology.home && carriesManifests(call.endpoint)) {
          return this.siblingManifests(route.cluster, call, admission);
        }
        return {
          kind: 'core',
          answer: await this.onCore(
            route.cluster,
            await this.forCluster(route.cluster, call, admission),
            admission,
          ),
        };
      case 'remote':
        if (call.endpointId === CREATE_REQUEST)
          return this.createRemotely(route.cluster, call, admission);
        return {
          kind: 'forward',
          forwarding: {
            target: gatewayUrlOf(topology, topology.home, route.cluster)!,
            cluster: route.cluster,
            token:
              admission.caller.token === null
                ? null
                : tokenFor(
                    route.cluster,
                    topology.home,
                    admission.caller.token,
                    admission.caller.v2Form,
                  ),
            home: topology.home,
            manifests: carriesManifests(call.endpoint),
          },
        };
      case 'no-proxy':
        throw new NotFoundError(msg.noProxyForCluster(route.cluster));
      case 'not-found':
        throw new NotFoundError();
      case 'list':
        return this.list(call, admission);
      case 'pdh':
        return this.pdh(call, admission);
    }
  }

  /**
   * A collections call on a sibling cluster of this deployment: `+R<sibling>-` back into `+A`
   * on the way there, its signatures as `+R<sibling>-` on the way back (storage.md §7).
   */
  private async siblingManifests(
    cluster: string,
    call: TypedCall,
    admission: Admission,
  ): Promise<Outcome> {
    const sent = { ...call, options: toCluster(call.options, cluster) };
    const answer = await this.onCore(cluster, sent, admission);
    const text = await answer.body.text();
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = { errors: [text] };
    }
    const status = answer.statusCode;
    return { kind: 'json', status, body: status === 200 ? fromCluster(body, cluster) : body };
  }

  /** The call as `cluster` must receive it: a federated container request's runtime token. */
  private async forCluster(
    cluster: string,
    call: TypedCall,
    admission: Admission,
  ): Promise<TypedCall> {
    let options = call.options;
    const { token, v2Form } = admission.caller;
    if (call.endpointId === CREATE_REQUEST && cluster !== this.deps.topology.home && token) {
      const identity = admission.identity!;
      options = await withFederatedRuntimeToken(
        options,
        cluster,
        { identity, token, ...(v2Form ? { v2Form } : {}) },
        this.runtimeDeps(admission.caller.requestId),
      );
    }
    await knownRuntimeToken(call.endpointId, options, cluster, this.deps.identities);
    return { ...call, options };
  }

  /** containers.md §13 towards another deployment: the call is re-sent with its runtime token. */
  private async createRemotely(
    cluster: string,
    call: TypedCall,
    admission: Admission,
  ): Promise<Outcome> {
    const { token, v2Form } = admission.caller;
    if (!token || !admission.homeIdentity) throw new NotLoggedInError();
    const options = await withFederatedRuntimeToken(
      call.options,
      cluster,
      { identity: admission.homeIdentity, token, ...(v2Form ? { v2Form } : {}) },
      this.runtimeDeps(admission.caller.requestId),
    );
    const answer = await this.deps.calls
      .call(cluster, call.endpoint, { ...options }, admission.caller)
      .catch((err: unknown) => {
        throw contactError(cluster, err);
      });
    return { kind: 'json', status: answer.status, body: answer.body };
  }

  private runtimeDeps(requestId: string) {
    const home = this.deps.topology.home;
    return {
      home,
      ttlSeconds: this.deps.config.Clusters[home]!.Collections.BlobSigningTTL,
      coreJson: this.deps.coreJson,
      requestId,
    };
  }

  private onCore(cluster: string, call: TypedCall, admission: Admission): Promise<CoreAnswer> {
    const { token, v2Form } = admission.caller;
    const received =
      token === null ? null : tokenFor(cluster, this.deps.topology.home, token, v2Form);
    const identity = {
      ...identityForCall(admission.identity!, call.endpoint, call.remote, received),
      ...call.request,
    };
    const body = JSON.stringify({ identity, options: call.options });
    return this.deps.cores.get(cluster)!.call(call.endpointId, body, admission.caller.requestId);
  }

  private async list(call: TypedCall, admission: Admission): Promise<Outcome> {
    const { topology, config } = this.deps;
    const max = config.Clusters[topology.home]!.API.MaxItemsPerResponse;
    const plan = planList(call.endpoint.resource, call.options, topology, max);
    if (plan.kind === 'local') {
      return { kind: 'core', answer: await this.onCore(topology.home, call, admission) };
    }
    const kind = `${resourceByType(call.endpoint.resource)!.kind}List`;
    const items =
      plan.kind === 'empty'
        ? []
        : await fanOut(
            this.deps.calls,
            call.endpoint,
            call.options,
            plan.byCluster,
            admission.caller,
          );
    const limit = plan.kind === 'empty' ? Number(call.options['limit'] ?? 100) : max;
    // The items as their clusters wrote them, in merged order.
    const head = JSON.stringify({ kind, offset: 0, limit: Math.min(limit, max) });
    const text = `${head.slice(0, -1)},"items":[${items.map((i) => i.json).join(',')}]}`;
    return { kind: 'text', status: 200, text };
  }

  private async pdh(call: TypedCall, admission: Admission): Promise<Outcome> {
    const { topology } = this.deps;
    const answer = await this.onCore(topology.home, call, admission);
    if (answer.statusCode !== 404) return { kind: 'core', answer };
    await answer.body.dump();
    const remotes = [...(topology.remotes.get(topology.home)?.keys() ?? [])];
    const body = await findByPdh(
      this.deps.calls,
      call.endpoint,
      { ...call.options },
      remotes,
      admission.caller,
    );
    return { kind: 'json', status: 200, body };
  }
}
