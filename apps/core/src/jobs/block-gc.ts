import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';
import type { BlockStore, TrashedBlock, Volume } from '@svc/volumes';
import type { Db } from '../db/db';
import { BLOCK_GC_RUN_LOCK, holdReferencesExclusive } from '../storage/reference-lock';
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

/** A volume's copies, kept compact: a run may list millions. */
interface Listing {
  volume: Volume;
  hashes: string[];
  mtimesNs: BigInt64Array;
  trash: TrashedBlock[];
}

async function listVolume(volume: Volume): Promise<Listing> {
  const hashes: string[] = [];
  let mtimes = new BigInt64Array(1024);
  for await (const b of volume.index()) {
    if (hashes.length === mtimes.length) {
      const grown = new BigInt64Array(mtimes.length * 2);
      grown.set(mtimes);
      mtimes = grown;
    }
    mtimes[hashes.length] = b.mtimeNs;
    hashes.push(b.hash);
  }
  const trash: TrashedBlock[] = [];
  for await (const t of volume.trashIndex()) trash.push(t);
  return { volume, hashes, mtimesNs: mtimes.subarray(0, hashes.length), trash };
}

async function listVolumes(store: BlockStore): Promise<Listing[]> {
  const out: Listing[] = [];
  for (const s of store.states) if (s.available) out.push(await listVolume(s.volume));
  return out;
}

function replicaCounts(listings: readonly Listing[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of listings)
    for (const h of l.hashes) counts.set(h, (counts.get(h) ?? 0) + l.volume.replication);
  return counts;
}

/** Runs `fn` over `items`, `n` at a time (volume operations wait on I/O, not CPU). */
async function inParallel<T>(n: number, items: readonly T[], fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** Moves unreferenced copies older than BlobSigningTTL to their volume's trash. */
async function trashUnreferenced(
  listings: readonly Listing[],
  referenced: ReadonlySet<string>,
  cutoffNs: bigint,
): Promise<number> {
  let trashed = 0;
  for (const { volume, hashes, mtimesNs } of listings) {
    if (volume.readOnly) continue;
    const candidates: number[] = [];
    hashes.forEach((h, i) => {
      if (!referenced.has(h) && mtimesNs[i]! < cutoffNs) candidates.push(i);
    });
    await inParallel(16, candidates, async (i) => {
      if (await volume.trash(hashes[i]!, mtimesNs[i]!)) trashed++;
    });
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

/** Adds a run to the store's totals, which the core's `/metrics` shows. */
function countRun(store: BlockStore, counts: BlockGcCounts): void {
  const c = store.counters;
  c.gcRuns++;
  c.gcTrashed += counts.trashed;
  c.gcRestored += counts.restored;
  c.gcDeleted += counts.deleted;
  c.gcLastStored = counts.stored;
  c.gcLastReferenced = counts.referenced;
}

/**
 * One garbage-collection run (storage.md §6), at most one per cluster at a time. Volumes are
 * listed first; then, holding the reference lock so that no write can name a block meanwhile
 * without restoring it afterwards, every manifest is read and unreferenced old copies trashed.
 */
/** Clusters whose garbage collection runs in this process now. */
const runningHere = new Set<string>();

export async function runBlockGc(deps: BlockGcDeps): Promise<BlockGcCounts> {
  const id = deps.cluster.ClusterID;
  if (runningHere.has(id)) return { ...idle(), ms: 0 };
  runningHere.add(id);
  try {
    return await runLocked(deps);
  } finally {
    runningHere.delete(id);
  }
}

function idle(): BlockGcCounts {
  return {
    ...{ ran: false, collections: 0, referenced: 0, stored: 0, trashed: 0 },
    ...{ restored: 0, deleted: 0, replicationUpdated: 0, ms: 0 },
  };
}

async function runLocked(deps: BlockGcDeps): Promise<BlockGcCounts> {
  const started = Date.now();
  const counts = idle();
  const c = deps.cluster.Collections;
  // Its own lock as well as the job runner's: runs started another way (tests, a second
  // process's runner under another name) still never overlap.
  const outcome = await deps.db.withSessionLock(BigInt(BLOCK_GC_RUN_LOCK), async () => {
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
  counts.ran = outcome.ran;
  counts.ms = Date.now() - started;
  if (counts.ran) countRun(deps.store, counts);
  deps.log.info({ cluster: deps.cluster.ClusterID, ...counts }, 'block garbage collection');
  return counts;
}
