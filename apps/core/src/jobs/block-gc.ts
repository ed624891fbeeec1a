import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';
import type { BlockStore, StoredBlock, TrashedBlock, Volume } from '@svc/volumes';
import type { Db } from '../db/db';
import { holdReferencesExclusive } from '../storage/reference-lock';
import { withGcRunLock } from './block-gc-lock';
import { applyReplication, readReferences } from './block-gc-references';

export interface BlockGcDeps {
  db: Db;
  cluster: Readonly<ClusterConfig>;
  store: BlockStore;
  /** Unix milliseconds (tests move it). */
  now: () => number;
  log: Logger;
}

/** What one run found and did; logged, and returned for the job runner and tests. */
export interface BlockGcCounts {
  ran: boolean;
  collections: number;
  referenced: number;
  stored: number;
  trashed: number;
  restored: number;
  deleted: number;
  replicationUpdated: number;
  ms: number;
}

interface Listing {
  volume: Volume;
  live: StoredBlock[];
  trash: TrashedBlock[];
}

async function listVolumes(store: BlockStore): Promise<Listing[]> {
  const out: Listing[] = [];
  for (const s of store.states) {
    if (!s.available) continue;
    const listing: Listing = { volume: s.volume, live: [], trash: [] };
    for await (const b of s.volume.index()) listing.live.push(b);
    for await (const t of s.volume.trashIndex()) listing.trash.push(t);
    out.push(listing);
  }
  return out;
}

function replicaCounts(listings: readonly Listing[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of listings)
    for (const b of l.live) counts.set(b.hash, (counts.get(b.hash) ?? 0) + l.volume.replication);
  return counts;
}

/** Moves unreferenced copies older than BlobSigningTTL to their volume's trash. */
async function trashUnreferenced(
  listings: readonly Listing[],
  referenced: ReadonlySet<string>,
  cutoffNs: bigint,
): Promise<number> {
  let trashed = 0;
  for (const { volume, live } of listings) {
    if (volume.readOnly) continue;
    for (const b of live) {
      if (referenced.has(b.hash) || b.mtimeNs >= cutoffNs) continue;
      if (await volume.trash(b.hash, b.mtimeNs)) trashed++;
    }
  }
  return trashed;
}

/** Restores trashed copies named again or written again; deletes those past their lifetime. */
async function sweepTrash(
  listings: readonly Listing[],
  referenced: ReadonlySet<string>,
  deleteBeforeMs: number,
): Promise<{ restored: number; deleted: number }> {
  let restored = 0;
  let deleted = 0;
  for (const { volume, trash } of listings) {
    if (volume.readOnly) continue;
    for (const t of trash) {
      if (referenced.has(t.hash) || (await volume.stat(t.hash)) !== null) {
        if (await volume.untrash(t.hash)) restored++;
      } else if (t.trashedAtMs < deleteBeforeMs) {
        await volume.deleteTrashed(t.hash);
        deleted++;
      }
    }
  }
  return { restored, deleted };
}

/**
 * One garbage-collection run (storage.md §6), at most one per cluster at a time. Volumes are
 * listed first; then, holding the reference lock so that no write can name a block meanwhile
 * without restoring it afterwards, every manifest is read and unreferenced old copies trashed.
 */
export async function runBlockGc(deps: BlockGcDeps): Promise<BlockGcCounts> {
  const started = Date.now();
  const counts: BlockGcCounts = {
    ...{ ran: false, collections: 0, referenced: 0, stored: 0, trashed: 0 },
    ...{ restored: 0, deleted: 0, replicationUpdated: 0, ms: 0 },
  };
  const c = deps.cluster.Collections;
  counts.ran = await withGcRunLock(deps.db, deps.cluster.ClusterID, async () => {
    const now = deps.now();
    const nowIso = new Date(now).toISOString();
    const listings = await listVolumes(deps.store);
    const replicas = replicaCounts(listings);
    counts.stored = replicas.size;
    const cutoffNs = BigInt(now - c.BlobSigningTTL * 1000) * 1_000_000n;
    const refs = await deps.db.transaction(async (tx) => {
      await holdReferencesExclusive(tx);
      const found = await readReferences(tx, nowIso, (h) => replicas.get(h) ?? 0);
      counts.trashed = await trashUnreferenced(listings, found.referenced, cutoffNs);
      return found;
    });
    counts.collections = refs.collections;
    counts.referenced = refs.referenced.size;
    const swept = await sweepTrash(listings, refs.referenced, now - c.BlobTrashLifetime * 1000);
    Object.assign(counts, swept);
    await applyReplication(deps.db, refs.updates, nowIso);
    counts.replicationUpdated = refs.updates.length;
  });
  counts.ms = Date.now() - started;
  deps.log.info({ cluster: deps.cluster.ClusterID, ...counts }, 'block garbage collection');
  return counts;
}
