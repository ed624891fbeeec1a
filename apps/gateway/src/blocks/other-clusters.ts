import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { checkSignature, type Locator } from '@svc/blocks';
import { routableRemotes, type Config } from '@svc/config';
import { ApiError } from '@svc/errors';
import { parseV2Token } from '@svc/ids';
import type { BlockStore } from '@svc/volumes';
import type { Identities } from '../federation/identities';
import { tokenFor } from '../federation/salting';
import { BlockHttpError } from './respond';

export interface OtherClustersDeps {
  config: Readonly<Config>;
  home: string;
  /** The volumes of the other clusters of this deployment (read without an HTTP hop). */
  stores: ReadonlyMap<string, BlockStore>;
  identities: Identities;
}

/** A block on its way from another cluster: its bytes (GET) or only the fact it is there. */
export interface Fetched {
  stream: Readable | null;
}

/**
 * Blocks of other clusters (storage.md §7): reached with the token salted for the cluster, as
 * any call to it (federation.md §3). A sibling of this deployment is read from its volumes,
 * checked with its own key; a cluster of another deployment through that gateway's block
 * service. What the other cluster refuses is refused here with its status and message.
 */
export class OtherClusters {
  private readonly agent: Dispatcher;

  constructor(private readonly deps: OtherClustersDeps) {
    const t = deps.config.Gateway.RemoteTimeout * 1000;
    this.agent = new Agent({ keepAliveTimeout: 30_000, headersTimeout: t, bodyTimeout: t });
  }

  /** 400 unless `cluster` is routable from home (federation.md §1). */
  checkRoutable(cluster: string): void {
    const home = this.deps.config.Clusters[this.deps.home]!;
    if (!routableRemotes(home).includes(cluster))
      throw new BlockHttpError(400, `remote cluster ${cluster} is not configured`);
  }

  isSibling(cluster: string): boolean {
    return this.deps.stores.has(cluster);
  }

  store(cluster: string): BlockStore {
    return this.deps.stores.get(cluster)!;
  }

  /** The presented token as `cluster` receives it (a bare local secret via its v2 form). */
  async salted(cluster: string, token: string): Promise<string> {
    let v2Form: string | undefined;
    if (parseV2Token(token) === null) {
      try {
        v2Form = (await this.deps.identities.atHome(token, null)).v2Form;
      } catch (err) {
        if (err instanceof ApiError) throw new BlockHttpError(err.status, err.messages[0]!);
        throw err;
      }
    }
    return tokenFor(cluster, this.deps.home, token, v2Form);
  }

  /** The gateway URL of a cluster of another deployment. */
  private urlOf(cluster: string): string {
    const entry = this.deps.config.Clusters[this.deps.home]!.RemoteClusters[cluster]!;
    return `${entry.Scheme}://${entry.Host}`;
  }

  /** A read of `locator` (its `+A` form for that cluster) with the salted token. */
  async read(
    cluster: string,
    path: string,
    locator: Locator,
    salted: string,
    method: 'GET' | 'HEAD',
  ): Promise<Fetched> {
    if (this.isSibling(cluster)) return this.readSibling(cluster, path, locator, salted, method);
    const res = await this.send(cluster, method, `/${path}`, salted);
    if (res.statusCode !== 200) {
      const text = (await res.body.text()).trim();
      throw new BlockHttpError(res.statusCode, text || `error from cluster ${cluster}`);
    }
    if (method === 'HEAD') {
      await res.body.dump();
      return { stream: null };
    }
    return { stream: res.body };
  }

  private async readSibling(
    cluster: string,
    path: string,
    locator: Locator,
    salted: string,
    method: 'GET' | 'HEAD',
  ): Promise<Fetched> {
    const c = this.deps.config.Clusters[cluster]!.Collections;
    if (c.BlobSigning) {
      const verdict = checkSignature(path, salted, Math.floor(Date.now() / 1000), {
        key: c.BlobSigningKey,
        ttlSeconds: c.BlobSigningTTL,
      });
      if (verdict !== 'ok') throw new BlockHttpError(403, verdict);
    }
    const store = this.store(cluster);
    if (method === 'HEAD' || locator.size === null) {
      const result = await store.head(locator.hash, locator.size);
      if (result === 'not found') throw new BlockHttpError(404, 'block not found');
      if (result === 'corrupt') throw new BlockHttpError(502, 'checksum mismatch in stored data');
      if (method === 'HEAD') return { stream: null };
    }
    const found = await store.open(locator.hash, locator.size!);
    if (!found) throw new BlockHttpError(404, 'block not found');
    return { stream: found.stream };
  }

  /** One request to another deployment's gateway; no answer is 502. */
  async send(
    cluster: string,
    method: Dispatcher.HttpMethod,
    path: string,
    salted: string,
    extra: { headers?: Record<string, string>; body?: Readable } = {},
  ): Promise<Dispatcher.ResponseData> {
    try {
      return await request(`${this.urlOf(cluster)}${path}`, {
        method,
        headers: { authorization: `Bearer ${salted}`, ...(extra.headers ?? {}) },
        ...(extra.body ? { body: extra.body } : {}),
        dispatcher: this.agent,
      });
    } catch (err) {
      throw new BlockHttpError(
        502,
        `error contacting cluster ${cluster}: ${(err as Error).message}`,
      );
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
