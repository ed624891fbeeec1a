import { createHash, type Hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * MD5 of blocks off the event loop. Hashing is most of the CPU a block costs (about 4 ms per
 * MiB on a loaded machine), and on the event loop it serialises every upload and download of
 * the process behind one core. Large blocks are hashed by a small pool of worker threads, each
 * block in one worker (its hash state lives there), several blocks at once.
 *
 * A block's bytes reach its worker through a ring of shared memory: the event loop copies each
 * chunk in once and posts only where it lies; the worker answers how many bytes it hashed,
 * which frees that part of the ring. A full ring makes the stream wait (memory stays bounded).
 * Copying into a fresh buffer per MiB and transferring it cost the event loop about as much
 * as the hashing (the copies, the transfers, and the garbage collection of a buffer per MiB).
 */

/** Inline source: runs the same from compiled code and from TypeScript under test. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const sessions = new Map();
parentPort.on('message', (m) => {
  if (m.t === 'o') {
    sessions.set(m.id, { h: createHash('md5'), ring: new Uint8Array(m.ring) });
  } else if (m.t === 'u') {
    const s = sessions.get(m.id);
    if (s) s.h.update(s.ring.subarray(m.o, m.o + m.n));
    parentPort.postMessage({ id: m.id, n: m.n });
  } else if (m.t === 'd') {
    const s = sessions.get(m.id);
    sessions.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: (s ? s.h : createHash('md5')).digest('hex') });
  } else {
    sessions.delete(m.id);
  }
});`;

/** Blocks smaller than this are hashed inline: a round trip to a worker costs more. */
export const WORKER_HASH_MIN_BYTES = 1 << 20;
/** Shared memory per block being hashed: the unhashed bytes it may have before it waits. */
const RING_BYTES = 8 << 20;
/** Bytes gathered in the ring before the worker hears of them: one message per MiB. */
const BATCH_BYTES = 1 << 20;
/** Rings kept for reuse (a new one is zero-filled memory: a cost like a copy). */
const rings: SharedArrayBuffer[] = [];
const MAX_SPARE_RINGS = 16;

interface Waiter {
  pending: number;
  onDrain: (() => void) | null;
  onDigest: ((hex: string) => void) | null;
}

class HashWorker {
  readonly worker: Worker;
  readonly sessions = new Map<number, Waiter>();

  constructor() {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker.on('message', (m: { id: number; n?: number; hex?: string }) => {
      const s = this.sessions.get(m.id);
      if (!s) return;
      if (m.hex !== undefined) {
        this.close(m.id);
        s.onDigest?.(m.hex);
        return;
      }
      s.pending -= m.n!;
      if (s.onDrain) {
        const drain = s.onDrain;
        s.onDrain = null;
        drain();
      }
    });
    // After the listener (adding a 'message' listener refs the worker again): an idle pool must
    // not keep a process (a test run, a command) alive, a busy one must.
    this.worker.unref();
  }

  open(id: number, state: Waiter): void {
    if (this.sessions.size === 0) this.worker.ref();
    this.sessions.set(id, state);
  }

  close(id: number): void {
    if (this.sessions.delete(id) && this.sessions.size === 0) this.worker.unref();
  }
}

let workers: HashWorker[] | null = null;
let nextWorker = 0;
let nextId = 0;

function pickWorker(): HashWorker | null {
  if (workers === null) {
    try {
      const n = Math.max(1, Math.min(4, availableParallelism()));
      workers = Array.from({ length: n }, () => new HashWorker());
    } catch {
      workers = [];
    }
  }
  if (workers.length === 0) return null;
  // The worker with the fewest blocks in hand, round robin among equals.
  let best = workers[nextWorker++ % workers.length]!;
  for (const w of workers) if (w.sessions.size < best.sessions.size) best = w;
  return best;
}

/** One block's MD5, computed inline or by a worker. */
export interface BlockHash {
  /** Adds a chunk; a promise when the stream should wait for the worker to catch up. */
  update(chunk: Buffer): Promise<void> | null;
  digest(): Promise<string>;
  /** The block was abandoned: forget its state. */
  abort(): void;
}

class InlineHash implements BlockHash {
  private readonly md5: Hash = createHash('md5');
  update(chunk: Buffer): null {
    this.md5.update(chunk);
    return null;
  }
  digest(): Promise<string> {
    return Promise.resolve(this.md5.digest('hex'));
  }
  abort(): void {}
}

class WorkerHash implements BlockHash {
  private readonly id = nextId++;
  private readonly state: Waiter = { pending: 0, onDrain: null, onDigest: null };
  private readonly ring: SharedArrayBuffer;
  private readonly view: Uint8Array;
  /** Where the next byte goes in the ring; the batch not yet posted ends there. */
  private at = 0;
  private batchBytes = 0;
  private done = false;

  constructor(private readonly w: HashWorker) {
    this.ring = rings.pop() ?? new SharedArrayBuffer(RING_BYTES);
    this.view = new Uint8Array(this.ring);
    w.open(this.id, this.state);
    w.worker.postMessage({ t: 'o', id: this.id, ring: this.ring });
  }

  /** Posts the gathered batch (a batch never wraps: at the ring's end the next one starts at 0). */
  private send(): void {
    if (this.batchBytes > 0) {
      this.state.pending += this.batchBytes;
      const o = this.at - this.batchBytes;
      this.w.worker.postMessage({ t: 'u', id: this.id, o, n: this.batchBytes });
      this.batchBytes = 0;
    }
    if (this.at === RING_BYTES) this.at = 0;
  }

  /** Copies what fits into the ring; null when all of the chunk did, else what is left. */
  private copyIn(chunk: Uint8Array): Uint8Array | null {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.at === RING_BYTES) this.send();
      // Free space runs from `at` to the oldest unhashed byte, or to the ring's end.
      const used = this.state.pending + this.batchBytes;
      const room = Math.min(RING_BYTES - this.at, RING_BYTES - used);
      if (room === 0) {
        this.send();
        return rest;
      }
      const n = Math.min(room, rest.length);
      this.view.set(rest.subarray(0, n), this.at);
      this.at += n;
      this.batchBytes += n;
      rest = rest.subarray(n);
      if (this.batchBytes >= BATCH_BYTES) this.send();
    }
    return null;
  }

  /** The rest of a chunk, copied as the worker frees the ring. */
  private async copyRest(rest: Uint8Array): Promise<void> {
    let left: Uint8Array | null = rest;
    while (left !== null) {
      await new Promise<void>((resolve) => (this.state.onDrain = resolve));
      left = this.copyIn(left);
    }
  }

  update(chunk: Buffer): Promise<void> | null {
    const rest = this.copyIn(chunk);
    return rest === null ? null : this.copyRest(rest);
  }

  digest(): Promise<string> {
    this.done = true;
    this.send();
    return new Promise((resolve) => {
      this.state.onDigest = (hex) => {
        // Every batch was hashed before the digest: the ring is free for another block.
        if (rings.length < MAX_SPARE_RINGS) rings.push(this.ring);
        resolve(hex);
      };
      this.w.worker.postMessage({ t: 'd', id: this.id });
    });
  }

  /** The ring is not reused: the worker may still be reading batches of this block. */
  abort(): void {
    if (this.done) return;
    this.done = true;
    this.w.close(this.id);
    this.w.worker.postMessage({ t: 'x', id: this.id });
  }
}

/** A hash for a block of `size` bytes (null: not known in advance). */
export function blockHash(size: number | null): BlockHash {
  if (size !== null && size < WORKER_HASH_MIN_BYTES) return new InlineHash();
  const w = pickWorker();
  return w ? new WorkerHash(w) : new InlineHash();
}
