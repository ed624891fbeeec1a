import { ServiceUnavailableError } from '@svc/errors';

interface Holder {
  held: number;
  waiting: (() => void)[];
}

/**
 * How many database sessions one caller (a token) may hold at once from the pool every caller
 * shares: at most `perCaller`, so that one token's slow lists can never take every session and
 * leave other users waiting (docs/adr/0017). A caller past its share waits for one of its own
 * sessions, first come first served, at most `waitMs`; then 503, as when the pool is out of
 * connections. Callers holding nothing are forgotten: memory follows the callers in flight.
 */
export class FairShare {
  private readonly holders = new Map<string, Holder>();

  constructor(
    readonly perCaller: number,
    private readonly waitMs: number,
  ) {}

  async run<T>(caller: string, fn: () => Promise<T>): Promise<T> {
    const entered = this.enter(caller);
    if (entered !== null) await entered;
    try {
      return await fn();
    } finally {
      this.leave(caller);
    }
  }

  /** null when a session is free for the caller now (no promise on the common path). */
  private enter(caller: string): Promise<void> | null {
    let h = this.holders.get(caller);
    if (h === undefined) {
      h = { held: 0, waiting: [] };
      this.holders.set(caller, h);
    }
    if (h.held < this.perCaller) {
      h.held += 1;
      return null;
    }
    const holder = h;
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        holder.waiting.splice(holder.waiting.indexOf(turn), 1);
        reject(new ServiceUnavailableError(undefined, false));
      }, this.waitMs);
      holder.waiting.push(turn);
    });
  }

  /** The session goes to the caller's next waiter (its count unchanged), else is given back. */
  private leave(caller: string): void {
    const h = this.holders.get(caller)!;
    const next = h.waiting.shift();
    if (next) {
      next();
      return;
    }
    h.held -= 1;
    if (h.held === 0) this.holders.delete(caller);
  }
}
