import { msg } from '@svc/contract';
import { TooManyRequestsError } from '@svc/errors';

/**
 * Requests in progress per token on this core (API.MaxConcurrentRequestsPerToken): one more
 * than the limit is refused with 429 at once, before it reaches the database, so one token
 * cannot queue up the cluster's work (docs/api/requests-and-errors.md §7). Tokens with nothing in
 * progress are forgotten.
 */
export class TokenRequestLimit {
  private readonly inProgress = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Runs `fn` as one of the token's requests, or throws 429 when it has `max` already. */
  async run<T>(token: string, fn: () => Promise<T>): Promise<T> {
    const n = this.inProgress.get(token) ?? 0;
    if (n >= this.max) throw new TooManyRequestsError(1, msg.tooManyTokenRequests());
    this.inProgress.set(token, n + 1);
    try {
      return await fn();
    } finally {
      const left = this.inProgress.get(token)! - 1;
      if (left === 0) this.inProgress.delete(token);
      else this.inProgress.set(token, left);
    }
  }
}
