import type { Config } from '@svc/config';
import { findEndpoint, rootIdentity } from '@svc/contract';
import { NotLoggedInError } from '@svc/errors';
import { clusterOf, parseV2Token, type Identity } from '@svc/ids';
import { isRootToken, validateAt, type ValidToken } from '../auth/authenticate';
import type { TokenCache } from '../auth/token-cache';
import type { CoreClient } from '../core-client';
import { identityForCall } from './identity';
import { validateAtIssuer, type CurrentAt } from './issuer';
import type { RemoteGateways } from './remote-gateways';
import { reaches, type Topology } from './topology';

/**
 * A typed call to a core of this deployment, answered JSON (status and parsed body). It carries
 * the caller's request id when it serves a request (requests-and-errors.md §6), a fresh one
 * otherwise.
 */
export type CoreJson = (
  cluster: string,
  endpointId: string,
  options: Record<string, unknown>,
  identity: Identity,
  requestId?: string,
) => Promise<{ status: number; body: unknown }>;

export interface IdentitiesDeps {
  config: Readonly<Config>;
  topology: Topology;
  cores: ReadonlyMap<string, CoreClient>;
  cache: TokenCache;
  remotes: RemoteGateways;
  coreJson: CoreJson;
  /** Identity-provider access tokens, at home only (auth.md §10). */
  fallback?: (token: string) => Promise<ValidToken | null>;
}

/**
 * Who a token is on a given cluster of this deployment (auth.md §3 as that cluster applies it):
 * its root token; a token the cluster issued; or a token of another cluster, validated at its
 * issuer and mirrored (federation.md §4). Answers are cached per cluster for at most 10 s
 * (never past a remote token's refresh time). The token must already be in the form that
 * cluster receives (salted for it, §3).
 */
export class Identities {
  constructor(private readonly deps: IdentitiesDeps) {}

  async forCluster(
    cluster: string,
    token: string | null,
    remote: string | null,
  ): Promise<Identity> {
    if (!token) throw new NotLoggedInError();
    const config = this.deps.config.Clusters[cluster]!;
    if (isRootToken(config, token)) {
      return rootIdentity(cluster, parseV2Token(token)?.secret ?? token);
    }
    return (await this.checked(cluster, token, remote)).identity;
  }

  /** A token's check on a cluster, cached (with the v2 form of a bare local secret). */
  private async checked(cluster: string, token: string, remote: string | null) {
    const cached = this.deps.cache.get(cluster, token, remote);
    if (cached) return cached;
    const valid = await this.check(cluster, token, remote);
    if (!valid) throw new NotLoggedInError();
    this.deps.cache.set(cluster, token, remote, valid, valid.expiresAt);
    return valid;
  }

  /**
   * The home check, with the v2 form of a bare local secret (to salt it for other clusters):
   * a bare secret is cached like its v2 form, so neither is checked again on every request.
   */
  async atHome(token: string | null, remote: string | null): Promise<ValidToken> {
    if (!token) throw new NotLoggedInError();
    const home = this.deps.topology.home;
    if (isRootToken(this.deps.config.Clusters[home]!, token)) {
      return { identity: await this.forCluster(home, token, remote), expiresAt: null };
    }
    const { identity, v2Form } = await this.checked(home, token, remote);
    return { identity, expiresAt: null, ...(v2Form ? { v2Form } : {}) };
  }

  private async check(cluster: string, token: string, remote: string | null) {
    const own = await validateAt(this.deps.cores.get(cluster)!, token, remote);
    if (own) return own;
    const foreign = await this.foreign(cluster, token);
    if (foreign) return foreign;
    return cluster === this.deps.topology.home
      ? ((await this.deps.fallback?.(token)) ?? null)
      : null;
  }

  /** federation.md §4: a v2 token of a cluster P routable from here, validated at P. */
  private async foreign(cluster: string, token: string): Promise<ValidToken | null> {
    const v2 = parseV2Token(token);
    const issuer = v2 ? clusterOf(v2.uuid) : null;
    if (!v2 || issuer === null || issuer === cluster) return null;
    if (!reaches(this.deps.topology, cluster, issuer)) return null;
    const answer = await validateAtIssuer(issuer, token, this.currentAt(issuer, cluster, token));
    const entry = this.deps.config.Clusters[cluster]!.RemoteClusters[issuer]!;
    const res = await this.deps.cores
      .get(cluster)!
      .post<ValidToken>('/_internal/remote-tokens/remember', {
        tokenUuid: answer.token.uuid,
        secret: v2.secret,
        scopes: answer.token.scopes,
        expiresAt: answer.token.expires_at,
        user: answer.user,
        activateUsers: entry.ActivateUsers,
      });
    return res.status === 200 ? res.body : null;
  }

  /** The issuer's `current` operations as `asCluster` asks them (federation.md §4 step 2). */
  private currentAt(issuer: string, asCluster: string, token: string): CurrentAt {
    if (this.deps.cores.has(issuer)) {
      return async (what) => {
        const endpoint = findEndpoint(what, 'current');
        const id = await this.forCluster(issuer, token, asCluster);
        const identity = identityForCall(id, endpoint, asCluster);
        return this.deps.coreJson(issuer, `svc.${what}.current`, {}, identity);
      };
    }
    const gateway = this.deps.remotes.from(asCluster, issuer);
    const query = `remote=${asCluster}&cluster_id=${issuer}&forwarded_for=${asCluster}`;
    return (what) => gateway.send('GET', `/svc/v1/${what}/current?${query}`, token);
  }
}
