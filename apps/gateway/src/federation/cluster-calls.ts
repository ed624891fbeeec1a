import { encodeCall, type Endpoint } from '@svc/contract';
import { ApiError, BadGatewayError } from '@svc/errors';
import { itemLinesOf, toJson, type ItemLine } from '@svc/http-kit';
import type { Identity } from '@svc/ids';
import { coreRefusal } from '../core-client';
import type { CoreJson, Identities } from './identities';
import { identityForCall } from './identity';
import type { RemoteGateways } from './remote-gateways';
import { contactError } from './remote-gateway';
import { carriesManifests, fromCluster, toCluster } from './manifests';
import { tokenFor } from './salting';

/** The caller as the federation layer sees it: the presented token and its home check. */
export interface Caller {
  token: string | null;
  /** The v2 form of a bare local token, once home has checked it. */
  v2Form?: string;
  requestId: string;
}

/**
 * A list call to a core of this deployment answered as item lines (a 200), or as JSON (any
 * other answer).
 */
export type CoreLines = (
  cluster: string,
  endpointId: string,
  options: Record<string, unknown>,
  identity: Identity,
  requestId: string,
) => Promise<{ status: number; body: unknown; items?: ItemLine[] }>;

export interface ClusterCallsDeps {
  home: string;
  cores: ReadonlySet<string>;
  identities: Identities;
  coreJson: CoreJson;
  coreLines: CoreLines;
  remotes: RemoteGateways;
}

/** A JSON answer from a cluster, whichever way it was reached. */
export interface ClusterAnswer {
  status: number;
  body: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Another cluster's collections with their signatures as `+R<cluster>-` (storage.md §7): only
 * items that hold a `+A` anywhere can carry one, and only those are read and written again.
 */
const linesFromCluster = (items: readonly ItemLine[], cluster: string): ItemLine[] =>
  items.map((i) =>
    i.json.includes('+A') ? { ...i, json: toJson(fromCluster(JSON.parse(i.json), cluster)) } : i,
  );

const idOf = (endpoint: Endpoint): string => `svc.${endpoint.resource}.${endpoint.name}`;

const asForm = (options: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(options)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );

/**
 * One typed call sent to a given cluster the way federation requires: to a core of this
 * deployment with the identity that cluster gives the (salted) token, or to another
 * deployment's gateway as `POST` with `_method` and a form body (federation.md §5), with
 * `forwarded_for`. Failures to reach a cluster, or refusals of the token there, throw.
 */
export class ClusterCalls {
  constructor(private readonly deps: ClusterCallsDeps) {}

  async call(
    cluster: string,
    endpoint: Endpoint,
    options: Record<string, unknown>,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<ClusterAnswer> {
    if (cluster === this.deps.home || !carriesManifests(endpoint)) {
      return this.send(cluster, endpoint, options, caller, signal);
    }
    // Another cluster's manifests (storage.md §7): its signatures as +R both ways.
    const answer = await this.send(
      cluster,
      endpoint,
      { ...toCluster(options, cluster) },
      caller,
      signal,
    );
    return answer.status === 200 ? { ...answer, body: fromCluster(answer.body, cluster) } : answer;
  }

  private async send(
    cluster: string,
    endpoint: Endpoint,
    options: Record<string, unknown>,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<ClusterAnswer> {
    if (this.deps.cores.has(cluster)) {
      return this.deps.coreJson(
        cluster,
        idOf(endpoint),
        options,
        await this.coreIdentity(cluster, endpoint, caller),
        caller.requestId,
      );
    }
    const token = this.tokenAt(cluster, caller);
    const gateway = this.deps.remotes.from(this.deps.home, cluster);
    if (signal?.aborted) throw new ApiError(499, 'cancelled');
    const forwarded = { ...options, forwarded_for: this.deps.home };
    if (endpoint.httpMethod !== 'GET') {
      // Writes go in the contract's own form (wrapped attributes, JSON body).
      const encoded = encodeCall(endpoint, forwarded);
      const json = encoded.json ?? {};
      return gateway.send(encoded.method, encoded.path, token, { json }, caller.requestId);
    }
    // Reads go as POST with _method=GET and a form body: many uuids fit no URL (§5).
    const path = `/svc/v1/${endpoint.path.replace('{uuid}', encodeURIComponent(String(options['uuid'] ?? '')))}`;
    const form = asForm({ ...forwarded, uuid: undefined, _method: 'GET' });
    return gateway.send('POST', path, token, { form }, caller.requestId);
  }

  /**
   * One page of a list call's items, with every failure (no answer, a refusal, an error status)
   * as one 502. A core of this deployment answers it as item lines: its items are passed on as
   * it wrote them, never parsed and written again here.
   */
  async listPage(
    cluster: string,
    endpoint: Endpoint,
    options: Record<string, unknown>,
    caller: Caller,
    describe: (detail: string) => string,
    signal?: AbortSignal,
  ): Promise<ItemLine[]> {
    let answer: ClusterAnswer & { items?: ItemLine[] };
    try {
      answer = this.deps.cores.has(cluster)
        ? await this.linesFromCore(cluster, endpoint, options, caller)
        : await this.call(cluster, endpoint, options, caller, signal);
    } catch (err) {
      const detail =
        err instanceof ApiError ? err.messages.join('; ') : contactError(cluster, err).messages[0]!;
      throw new BadGatewayError(describe(detail));
    }
    const refusal = this.deps.cores.has(cluster) ? coreRefusal(answer.status, answer.body) : null;
    if (refusal) throw refusal;
    if (answer.status !== 200) {
      const errors = (answer.body as { errors?: unknown } | null)?.errors;
      throw new BadGatewayError(
        describe(`${answer.status} ${Array.isArray(errors) ? errors.join('; ') : ''}`.trim()),
      );
    }
    if (answer.items) return answer.items;
    const items = isObj(answer.body) ? answer.body['items'] : undefined;
    return itemLinesOf(Array.isArray(items) ? items : []);
  }

  private async linesFromCore(
    cluster: string,
    endpoint: Endpoint,
    options: Record<string, unknown>,
    caller: Caller,
  ): Promise<ClusterAnswer & { items?: ItemLine[] }> {
    const sibling = cluster !== this.deps.home && carriesManifests(endpoint);
    const answer = await this.deps.coreLines(
      cluster,
      idOf(endpoint),
      sibling ? { ...toCluster(options, cluster) } : options,
      await this.coreIdentity(cluster, endpoint, caller),
      caller.requestId,
    );
    return sibling && answer.items
      ? { ...answer, items: linesFromCluster(answer.items, cluster) }
      : answer;
  }

  /** The caller's token as `cluster` takes it (salted for a cluster other than home). */
  private tokenAt(cluster: string, caller: Caller): string | null {
    return caller.token === null
      ? null
      : tokenFor(cluster, this.deps.home, caller.token, caller.v2Form);
  }

  /** The identity a core of this deployment is called with for the caller. */
  private async coreIdentity(
    cluster: string,
    endpoint: Endpoint,
    caller: Caller,
  ): Promise<Identity> {
    const token = this.tokenAt(cluster, caller);
    const identity = await this.deps.identities.forCluster(cluster, token, null);
    return identityForCall(identity, endpoint, null, token);
  }
}
