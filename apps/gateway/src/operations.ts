import { Counter } from 'prom-client';
import type { ClusterConfig, Config } from '@svc/config';
import { corruptCopyMetric, HttpMetrics, type Operations } from '@svc/http-kit';
import type { BlockStore } from '@svc/volumes';
import { internalHealthToken } from '@svc/ids';
import type { TokenCache } from './auth/token-cache';

/** A core that does not answer its health check within this is reported down. */
const CHECK_TIMEOUT_MS = 3_000;

interface Check {
  health: 'OK' | 'ERROR';
  responseTime: number;
  error?: string;
}

/** One cluster core's `/_health/ping` (or another of its health checks), as its gateway sees it. */
async function checkCore(
  cluster: Readonly<ClusterConfig>,
  url: string,
  path = '/_health/ping',
): Promise<Check> {
  const started = process.hrtime.bigint();
  const took = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const res = await fetch(`${url}${path}`, {
      headers: { Authorization: `Bearer ${internalHealthToken(cluster.SystemRootToken)}` },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    const body = (await res.json().catch(() => ({}))) as { error?: unknown };
    if (res.status === 200) return { health: 'OK', responseTime: took() };
    const error = typeof body.error === 'string' ? body.error : `answered ${res.status}`;
    return { health: 'ERROR', responseTime: took(), error };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    const error = cause === 'ECONNREFUSED' ? 'connection refused' : (err as Error).message;
    return { health: 'ERROR', responseTime: took(), error };
  }
}

/**
 * The gateway's operations endpoints: `/_health/ping` while it and its home cluster's core and
 * database can serve, `/_health/all` asking
 * every cluster core it runs in front of (and, through them, their databases), `/metrics`
 * with its requests, the process, its token cache and the corrupt copies its block reads found.
 */
export function gatewayOperations(
  config: Readonly<Config>,
  home: Readonly<ClusterConfig>,
  coreUrls: Readonly<Record<string, string>>,
  cache: TokenCache,
  blocks: BlockStore,
): Operations {
  const metrics = new HttpMetrics({ app: 'gateway', cluster: home.ClusterID }, true);
  new Counter({
    name: 'svc_token_cache_lookups_total',
    help: 'Token checks answered from the gateway cache (hit) or by the cluster (miss)',
    labelNames: ['result'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      this.inc({ result: 'hit' }, cache.stats.hits);
      this.inc({ result: 'miss' }, cache.stats.misses);
    },
  });
  corruptCopyMetric(metrics.registry, () => blocks.counters);
  return {
    token: home.ManagementToken,
    metrics,
    // Serving needs the home cluster's database: while it refuses, ping says so too (503).
    async ping() {
      const url = coreUrls[home.ClusterID];
      if (url === undefined) return null;
      const check = await checkCore(home, url);
      return check.health === 'OK' ? null : `cluster ${home.ClusterID}: ${check.error}`;
    },
    /** The vocabulary is the home core's: it checks properties with it. */
    async vocabulary() {
      const check = await checkCore(home, coreUrls[home.ClusterID]!, '/_health/vocabulary');
      return check.health === 'OK' ? null : (check.error ?? 'unknown');
    },
    async all() {
      const entries = await Promise.all(
        Object.entries(coreUrls).map(
          async ([id, url]) => [id, await checkCore(config.Clusters[id]!, url)] as const,
        ),
      );
      const ok = entries.every(([, c]) => c.health === 'OK');
      return { ok, body: { health: ok ? 'OK' : 'ERROR', checks: Object.fromEntries(entries) } };
    },
  };
}
