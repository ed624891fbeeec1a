import type { Endpoint } from '@svc/contract';
import type { ItemLine } from '@svc/http-kit';
import { keepAsked, mergeItems } from './federated-list';
import type { Caller, ClusterCalls } from './cluster-calls';

/**
 * federation.md §5 steps 5–6: every cluster asked in parallel for its uuids (`uuid in`,
 * count none, `uuid` added to `select`), asked again for those still missing until a page
 * brings none; the first failure is the answer (the other calls are cancelled), merged items
 * otherwise.
 */
export async function fanOut(
  calls: ClusterCalls,
  endpoint: Endpoint,
  options: Readonly<Record<string, unknown>>,
  byCluster: ReadonlyMap<string, readonly string[]>,
  caller: Caller,
): Promise<ItemLine[]> {
  const abort = new AbortController();
  const select = options['select'] as string[] | undefined;
  const base: Record<string, unknown> = {
    ...options,
    count: 'none',
    ...(select ? { select: select.includes('uuid') ? select : [...select, 'uuid'] } : {}),
  };
  const fromCluster = async (cluster: string, uuids: readonly string[]): Promise<ItemLine[]> => {
    const asked = new Set(uuids);
    const got: ItemLine[] = [];
    let missing = [...uuids];
    while (missing.length > 0) {
      const items = await calls.listPage(
        cluster,
        endpoint,
        { ...base, filters: [['uuid', 'in', missing]] },
        caller,
        (detail) => `error fetching from cluster ${cluster}: ${detail}`,
        abort.signal,
      );
      const kept = keepAsked(cluster, asked, items);
      if (kept.length === 0) break;
      got.push(...kept);
      const seen = new Set(kept.map((i) => i.uuid));
      missing = missing.filter((u) => !seen.has(u));
    }
    return got;
  };
  try {
    const parts = await Promise.all(
      [...byCluster].map(([cluster, uuids]) => fromCluster(cluster, uuids)),
    );
    return mergeItems(parts);
  } catch (err) {
    abort.abort();
    throw err;
  }
}
