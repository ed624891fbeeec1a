import { Counter, Gauge, type Registry } from 'prom-client';

/** The totals a block store keeps (the volumes package's StoreCounters), read at each scrape. */
export interface BlockCounters {
  corruptCopies: number;
  gcRuns: number;
  gcTrashed: number;
  gcRestored: number;
  gcDeleted: number;
  gcLastStored: number;
  gcLastReferenced: number;
}

/** null: the process holds no store for the cluster (yet); the metrics read 0. */
type Read = () => Readonly<BlockCounters> | null;

/** Copies a read found corrupt (storage.md §4): on every app that reads blocks. */
export function corruptCopyMetric(registry: Registry, read: Read): void {
  new Counter({
    name: 'svc_block_corrupt_copies_total',
    help: 'Stored block copies whose content did not match their hash when read',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read()?.corruptCopies ?? 0);
    },
  });
}

/** What garbage collection did (storage.md §6): on the app that runs it, a cluster's core. */
export function blockGcMetrics(registry: Registry, read: Read): void {
  new Counter({
    name: 'svc_block_gc_runs_total',
    help: 'Block garbage-collection runs completed',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read()?.gcRuns ?? 0);
    },
  });
  new Counter({
    name: 'svc_block_gc_blocks_total',
    help: 'Block copies garbage collection trashed, restored from trash, and deleted',
    labelNames: ['action'],
    registers: [registry],
    collect() {
      const c = read();
      this.reset();
      this.inc({ action: 'trashed' }, c?.gcTrashed ?? 0);
      this.inc({ action: 'restored' }, c?.gcRestored ?? 0);
      this.inc({ action: 'deleted' }, c?.gcDeleted ?? 0);
    },
  });
  new Gauge({
    name: 'svc_block_gc_last_run_blocks',
    help: 'What the last garbage-collection run found: distinct stored blocks, referenced blocks',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const c = read();
      this.set({ kind: 'stored' }, c?.gcLastStored ?? 0);
      this.set({ kind: 'referenced' }, c?.gcLastReferenced ?? 0);
    },
  });
}
