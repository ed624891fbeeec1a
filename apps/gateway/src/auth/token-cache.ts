import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Identity } from '@svc/ids';

/**
 * How long a checked token is trusted without asking its cluster again. Changes made through
 * this gateway (token deleted or changed, user or client changed, logout) evict at once; this
 * bounds everything else, e.g. a token revoked through another gateway.
 */
export const TOKEN_CACHE_TTL_MS = 10_000;

/** A checked token: who it is, and the v2 form of a bare local secret (to salt it elsewhere). */
export interface CachedToken {
  identity: Identity;
  v2Form?: string;
}

/** One entry per cluster a token was checked for, token, and honoured `remote`. */
const keyOf = (cluster: string, token: string, remote: string | null): string =>
  hash('sha256', `${cluster}\n${token}\n${remote ?? ''}`, 'hex');

export class TokenCache {
  private readonly cache = new LRUCache<string, CachedToken>({
    max: 50_000,
    ttl: TOKEN_CACHE_TTL_MS,
  });
  /** Lookups answered from the cache and not (the gateway's metrics read them). */
  readonly stats = { hits: 0, misses: 0 };

  get(cluster: string, token: string, remote: string | null): CachedToken | undefined {
    const entry = this.cache.get(keyOf(cluster, token, remote));
    if (entry) this.stats.hits++;
    else this.stats.misses++;
    return entry;
  }

  /** Never kept past the record's own expiry. */
  set(
    cluster: string,
    token: string,
    remote: string | null,
    entry: CachedToken,
    expiresAt: string | null,
  ): void {
    const untilExpiry = expiresAt === null ? Infinity : Date.parse(expiresAt) - Date.now();
    if (untilExpiry <= 0) return;
    const { identity, v2Form } = entry;
    this.cache.set(
      keyOf(cluster, token, remote),
      { identity, ...(v2Form ? { v2Form } : {}) },
      { ttl: Math.min(TOKEN_CACHE_TTL_MS, untilExpiry) },
    );
  }

  evictWhere(match: (identity: Identity) => boolean): void {
    for (const [key, entry] of this.cache.entries()) {
      if (match(entry.identity)) this.cache.delete(key);
    }
  }

  clear(): void {
    this.cache.clear();
  }
}
