import { BlockHttpError } from './respond';

/**
 * How many block writes run at once, and how long a PUT waits for a turn before 503
 * (storage.md §4). Each write streams with bounded buffers, so this bounds the memory and the
 * open files of uploads however many clients there are. Tests may lower the wait.
 */
export const blockWriteLimits = { concurrent: 16, waitMs: 30_000 };

/** A counting semaphore with a bounded wait. */
export class WriteLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits = blockWriteLimits) {}

  /** Resolves with a release function, or throws 503 after waiting too long. */
  async acquire(): Promise<() => void> {
    if (this.running >= this.limits.concurrent) await this.wait();
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.waiting.shift()?.();
    };
  }

  private wait(): Promise<void> {
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(turn);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new BlockHttpError(503, 'too many concurrent writes'));
      }, this.limits.waitMs);
      this.waiting.push(turn);
    });
  }
}
