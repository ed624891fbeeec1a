import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';
import { BlockStore, volumesOf } from '@svc/volumes';

/**
 * Each running core's view of its cluster's volumes, by cluster id: collection writes restore
 * trashed blocks through it, and garbage collection lists and trashes through it. Several
 * cores may run in one process (the launcher), each with its own cluster.
 */
const stores = new Map<string, BlockStore>();

export async function openBlockStore(
  cluster: Readonly<ClusterConfig>,
  log: Logger,
): Promise<BlockStore> {
  const store = new BlockStore(volumesOf(cluster), log.child({ part: 'volumes' }));
  await store.start();
  stores.set(cluster.ClusterID, store);
  return store;
}

export async function closeBlockStore(clusterId: string): Promise<void> {
  const store = stores.get(clusterId);
  stores.delete(clusterId);
  await store?.close();
}

/** The cluster's store, or null when this process runs no core for it. */
export const blockStoreOf = (clusterId: string): BlockStore | null => stores.get(clusterId) ?? null;
