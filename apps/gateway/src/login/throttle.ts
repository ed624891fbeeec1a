import type { ClusterConfig } from '@svc/config';
import { TooManyRequestsError } from '@svc/errors';

/** Failures of one key within the current window. */
interface Count {
  since: number;
  failures: number;
}

/** Keys kept at most; expired ones are swept when this is reached. */
const MAX_KEYS = 100_000;

/**
 * Failed password logins counted per username and per client address (Login.Throttle): past
 * either limit within the window, a login is refused with 429 before the password is checked,
 * so guessing costs the attacker time, whichever of the two they vary. A success clears its
 * username's count. In memory: each gateway counts what it sees.
 */
export class LoginThrottle {
  private readonly counts = new Map<string, Count>();

  constructor(
    private readonly limits: Readonly<ClusterConfig['Login']['Throttle']>,
    private readonly now: () => number = Date.now,
  ) {}

  /** 429 when the username or the address is over its limit. */
  check(username: string, address: string): void {
    const wait = Math.max(
      this.waitFor(`u:${username.toLowerCase()}`, this.limits.MaxFailuresPerUsername),
      this.waitFor(`a:${address}`, this.limits.MaxFailuresPerAddress),
    );
    if (wait > 0) throw new TooManyRequestsError(wait);
  }

  failed(username: string, address: string): void {
    this.bump(`u:${username.toLowerCase()}`);
    this.bump(`a:${address}`);
  }

  succeeded(username: string): void {
    this.counts.delete(`u:${username.toLowerCase()}`);
  }

  /** Seconds until `key` may try again (0: now). */
  private waitFor(key: string, max: number): number {
    const c = this.current(key);
    if (max === 0 || !c || c.failures < max) return 0;
    return Math.max(1, Math.ceil((c.since + this.limits.Window * 1000 - this.now()) / 1000));
  }

  private current(key: string): Count | undefined {
    const c = this.counts.get(key);
    if (c && this.now() - c.since >= this.limits.Window * 1000) {
      this.counts.delete(key);
      return undefined;
    }
    return c;
  }

  private bump(key: string): void {
    const c = this.current(key);
    if (c) {
      c.failures += 1;
      return;
    }
    if (this.counts.size >= MAX_KEYS) this.sweep();
    this.counts.set(key, { since: this.now(), failures: 1 });
  }

  private sweep(): void {
    for (const key of [...this.counts.keys()]) this.current(key);
    // Still full of live keys (a flood of addresses): start over rather than grow without bound.
    if (this.counts.size >= MAX_KEYS) this.counts.clear();
  }
}

const throttles = new WeakMap<object, LoginThrottle>();

/** The throttle of a cluster configuration (one per gateway and cluster). */
export function throttleFor(cluster: Readonly<ClusterConfig>): LoginThrottle {
  let t = throttles.get(cluster);
  if (!t) {
    t = new LoginThrottle(cluster.Login.Throttle);
    throttles.set(cluster, t);
  }
  return t;
}
