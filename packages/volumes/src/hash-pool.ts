import { createHash, type Hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * MD5 of blocks off the event loop. Hashing is most of the CPU a block costs (about 4 ms per
 * MiB on a loaded machine), and on the event loop it serialises every upload and download of
 * the process behind one core. Large blocks are hashed by a small pool of worker threads, each
 * block in one worker (its hash state lives there), several blocks at once; the stream only
 * waits when a block's chunks pile up unhashed beyond a bound (memory stays bounded).
 */

/** Inline source: runs the same from compiled code and from TypeScript under test. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const sessions = new Map();
parentPort.on('message', (m) => {
  if (m.t === 'u') {
    let h = sessions.get(m.id);
    if (!h) { h = createHash('md5'); sessions.set(m.id, h); }
    h.update(new Uint8Array(m.c.buffer, m.c.byteOffset, m.c.byteLength));
    parentPort.postMessage({ id: m.id, n: m.c.byteLength });
  } else if (m.t === 'd') {
    const h = sessions.get(m.id) || createHash('md5');
    sessions.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: h.digest('hex') });
  } else {
    sessions.delete(m.id);
  }
});`;

/** Blocks smaller than this are hashed inline: a round trip to a worker costs more. */
export const WORKER_HASH_MIN_BYTES = 1 << 20;
/** Unhashed bytes a block may have queued at its worker before its stream waits. */
const MAX_PENDING = 8 << 20;

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
      if (s.pending <= MAX_PENDING / 2 && s.onDrain) {
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

/** Chunks go to a worker in batches of this size: one message and one copy per MiB. */
const BATCH_BYTES = 1 << 20;

class WorkerHash implements BlockHash {
  private readonly id = nextId++;
  private readonly state: Waiter = { pending: 0, onDrain: null, onDigest: null };
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private done = false;

  constructor(private readonly w: HashWorker) {
    w.open(this.id, this.state);
  }

  /**
   * The batch copied into a buffer of its own and transferred, not cloned: a message per
   * 64 KiB chunk cost the event loop as much as hashing it there.
   */
  private send(): void {
    if (this.batchBytes === 0) return;
    const out = Buffer.allocUnsafeSlow(this.batchBytes);
    let at = 0;
    for (const c of this.batch) {
      c.copy(out, at);
      at += c.length;
    }
    this.state.pending += out.length;
    this.batch = [];
    this.batchBytes = 0;
    this.w.worker.postMessage({ t: 'u', id: this.id, c: out }, [out.buffer as ArrayBuffer]);
  }

  update(chunk: Buffer): Promise<void> | null {
    this.batch.push(chunk);
    this.batchBytes += chunk.length;
    if (this.batchBytes < BATCH_BYTES) return null;
    this.send();
    if (this.state.pending <= MAX_PENDING) return null;
    return new Promise((resolve) => (this.state.onDrain = resolve));
  }

  digest(): Promise<string> {
    this.done = true;
    this.send();
    return new Promise((resolve) => {
      this.state.onDigest = resolve;
      this.w.worker.postMessage({ t: 'd', id: this.id });
    });
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    this.batch = [];
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
