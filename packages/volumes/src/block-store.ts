import { createHash } from 'node:crypto';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { rendezvousOrder } from '@svc/blocks';
import { isVerificationError, VolumeFullError, VolumeUnavailableError } from './errors';
import { BlockVerifier } from './verify';
import type { ByteRange, Volume } from './volume';

export interface VolumeState {
  volume: Volume;
  /** False when the start-up check failed: skipped for reads and writes. */
  available: boolean;
  problem: string | null;
}

export interface StoreCounters {
  /** Copies found corrupt by a read (GET or HEAD). */
  corruptCopies: number;
  /** Garbage-collection runs over this store, and what they did (storage.md §6). */
  gcRuns: number;
  gcTrashed: number;
  gcRestored: number;
  gcDeleted: number;
  /** What the last run found: distinct stored blocks, and blocks named by manifests. */
  gcLastStored: number;
  gcLastReferenced: number;
}

export type HeadResult = 'ok' | 'not found' | 'corrupt';

export interface WriteResult {
  size: number;
  /** Summed Replication of the volumes holding the block. */
  replicas: number;
}

const discard = (): Writable =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

/** How many corrupt copies a store remembers (to read them last). */
const CORRUPT_MEMORY = 10_000;

const orderOf = (hash: string, states: readonly VolumeState[]): Volume[] =>
  rendezvousOrder(
    hash,
    states.filter((s) => s.available),
    (s) => s.volume.id,
  ).map((s) => s.volume);

/**
 * One cluster's volumes as one store of blocks: placement in rendezvous order, replication
 * accounting, restoring trashed copies, reading the first good copy.
 */
export class BlockStore {
  readonly states: VolumeState[];
  /** Totals since start, exported on `/metrics` by the apps that hold the store. */
  readonly counters: StoreCounters = {
    ...{ corruptCopies: 0, gcRuns: 0, gcTrashed: 0, gcRestored: 0, gcDeleted: 0 },
    ...{ gcLastStored: 0, gcLastReferenced: 0 },
  };

  /**
   * Copies a read found corrupt (`<volume id>/<hash>`), newest last, at most CORRUPT_MEMORY:
   * later reads try them last, so a client that reads again gets another copy (execution.md
   * §3.3: a bad block is read from another copy). A copy written again is forgotten here.
   */
  private readonly corrupt = new Set<string>();

  constructor(
    volumes: readonly Volume[],
    private readonly log: Logger,
  ) {
    this.states = volumes.map((volume) => ({ volume, available: true, problem: null }));
  }

  /** Checks every volume; one that cannot be reached is reported and skipped. */
  async start(): Promise<void> {
    if (this.states.length === 0)
      this.log.warn('no volume configured: every block write will answer 507');
    await Promise.all(
      this.states.map(async (s) => {
        try {
          await s.volume.check();
        } catch (err) {
          s.available = false;
          s.problem = (err as Error).message;
          this.log.error({ volume: s.volume.id, err: s.problem }, 'volume unavailable');
        }
      }),
    );
  }

  private writable(hash: string): Volume[] {
    return orderOf(
      hash,
      this.states.filter((s) => !s.volume.readOnly),
    );
  }

  /** Every available volume, in the order a reader tries them: copies known corrupt last. */
  readOrder(hash: string): Volume[] {
    const order = orderOf(hash, this.states);
    const bad = (v: Volume) => this.corrupt.has(`${v.id}/${hash}`);
    return [...order.filter((v) => !bad(v)), ...order.filter(bad)];
  }

  /**
   * Stores a block until `desired` copies are counted (storage.md §4) and returns how many
   * are. Copies already there count (their time refreshed); trashed ones are restored first.
   */
  async write(
    hash: string,
    body: Readable,
    expectedLength: number | null,
    desired: number,
  ): Promise<WriteResult> {
    const targets = this.writable(hash);
    const existing = await this.existingCopies(hash, targets);
    const counted = (vs: Volume[]) => vs.reduce((n, v) => n + v.replication, 0);
    if (targets.length === 0 || counted(existing.map((e) => e.volume)) >= desired) {
      const size = await this.verifyOnly(hash, body, expectedLength);
      const held = existing.filter((e) => e.size === size).map((e) => e.volume);
      if (targets.length === 0) throw new VolumeFullError('insufficient storage');
      if (counted(held) >= desired) return { size, replicas: await this.refresh(hash, held) };
      return this.writeCopies(hash, held, targets, { size, body: null }, desired);
    }
    const held = existing.filter((e) => expectedLength === null || e.size === expectedLength);
    return this.writeCopies(
      hash,
      held.map((e) => e.volume),
      targets,
      { size: null, body, expectedLength },
      desired,
    );
  }

  private async existingCopies(hash: string, targets: Volume[]) {
    const found = await Promise.all(
      targets.map(async (volume) => {
        try {
          await volume.untrash(hash);
          const st = await volume.stat(hash);
          return st ? [{ volume, size: st.size }] : [];
        } catch (err) {
          this.log.warn({ volume: volume.id, err: (err as Error).message }, 'volume error');
          return [];
        }
      }),
    );
    return found.flat();
  }

  private async verifyOnly(hash: string, body: Readable, length: number | null): Promise<number> {
    const verifier = new BlockVerifier(hash, length);
    await pipeline(body, verifier, discard());
    return verifier.bytes;
  }

  private async refresh(hash: string, held: Volume[]): Promise<number> {
    let n = 0;
    for (const v of held) if (await v.touch(hash).catch(() => false)) n += v.replication;
    return n;
  }

  /**
   * The body goes to the first target that does not hold the block; further copies are made
   * from a stored one until `desired` copies are counted.
   */
  private async writeCopies(
    hash: string,
    held: Volume[],
    targets: Volume[],
    input: { size: number | null; body: Readable | null; expectedLength?: number | null },
    desired: number,
  ): Promise<WriteResult> {
    let replicas = await this.refresh(hash, held);
    const body = input.body;
    let size = input.size;
    let source: Volume | null = held[0] ?? null;
    let full = 0;
    let failed = 0;
    for (const v of targets) {
      if (replicas >= desired) break;
      if (held.includes(v)) continue;
      try {
        if (body && size === null) {
          size = await v.put(hash, body, { expectedLength: input.expectedLength ?? null });
        } else {
          const from = source && (await source.get(hash));
          if (!from) break;
          await v.put(hash, from, { expectedLength: size });
        }
        replicas += v.replication;
        this.corrupt.delete(`${v.id}/${hash}`);
        source ??= v;
      } catch (err) {
        if (isVerificationError(err)) throw err;
        if (err instanceof VolumeFullError) full++;
        else failed++;
        this.log.error({ volume: v.id, err: (err as Error).message }, 'block write failed');
        // The body is gone once a volume started reading it.
        if (body && size === null && (body.readableDidRead || body.destroyed)) break;
      }
    }
    if (replicas === 0) {
      if (full > 0 && failed === 0) throw new VolumeFullError('insufficient storage');
      throw new VolumeUnavailableError('all', new Error('volume unavailable'));
    }
    return { size: size ?? input.expectedLength ?? 0, replicas };
  }

  /** The first copy of the right size, in read order (all of it, or a range), or null. */
  async open(
    hash: string,
    size: number,
    range?: ByteRange,
  ): Promise<{ volume: Volume; stream: Readable } | null> {
    for (const volume of this.readOrder(hash)) {
      try {
        const st = await volume.stat(hash);
        if (!st || st.size !== size) continue;
        const stream = await volume.get(hash, range);
        if (stream) return { volume, stream };
      } catch (err) {
        this.log.warn({ volume: volume.id, err: (err as Error).message }, 'block read failed');
      }
    }
    return null;
  }

  /** Reads and hashes copies in turn: the first good one answers (HEAD, storage.md §4). */
  async head(hash: string, size: number | null): Promise<HeadResult> {
    let corrupt = false;
    for (const volume of this.readOrder(hash)) {
      try {
        const st = await volume.stat(hash);
        if (!st || (size !== null && st.size !== size)) continue;
        const stream = await volume.get(hash);
        if (!stream) continue;
        const md5 = createHash('md5');
        for await (const chunk of stream) md5.update(chunk as Buffer);
        if (md5.digest('hex') === hash) return 'ok';
        this.reportCorrupt(volume, hash);
        corrupt = true;
      } catch (err) {
        this.log.warn({ volume: volume.id, err: (err as Error).message }, 'block read failed');
      }
    }
    return corrupt ? 'corrupt' : 'not found';
  }

  reportCorrupt(volume: Volume, hash: string): void {
    this.corrupt.add(`${volume.id}/${hash}`);
    if (this.corrupt.size > CORRUPT_MEMORY) {
      this.corrupt.delete(this.corrupt.values().next().value as string);
    }
    this.counters.corruptCopies++;
    this.log.error({ volume: volume.id, block: hash }, 'corrupt copy: checksum mismatch');
  }

  /** Restores a trashed block on every writable volume (a manifest names it again). */
  async restore(hash: string): Promise<number> {
    let restored = 0;
    for (const s of this.states) {
      if (!s.available || s.volume.readOnly) continue;
      if (await s.volume.untrash(hash)) restored++;
    }
    return restored;
  }

  async close(): Promise<void> {
    await Promise.all(this.states.map((s) => s.volume.close()));
  }
}
