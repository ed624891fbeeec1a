/** Where outage lines go: pino's `warn`/`info(object, message)` are enough. */
export interface OutageLogger {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

/** What is said of the error that started an outage: its code and first line, no stack. */
function cause(err: unknown): Record<string, unknown> {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  return {
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.message === 'string' ? { reason: e.message.split('\n')[0] } : {}),
  };
}

/**
 * A database outage as the log tells it (docs/api/requests-and-errors.md §7): one line when the first
 * request is refused because the database cannot be reached, one when a statement succeeds
 * again with how long it lasted and how many requests were refused, never a line per request.
 * Per core process; "reachable" is cheap enough to call on every request's first statement.
 */
export class DatabaseOutage {
  private since: number | null = null;
  private refusals = 0;

  constructor(
    private readonly log: OutageLogger,
    private readonly cluster: string,
    private readonly now: () => number = Date.now,
  ) {}

  get ongoing(): boolean {
    return this.since !== null;
  }

  /** A request was refused (503) because the database could not be asked. */
  refused(err: unknown): void {
    this.refusals += 1;
    if (this.since !== null) return;
    this.since = this.now();
    this.log.warn(
      { cluster: this.cluster, ...cause(err) },
      'database unreachable: requests are refused with 503 until it answers again',
    );
  }

  /** A statement succeeded: an outage in progress has ended. */
  reachable(): void {
    if (this.since === null) return;
    const seconds = Math.round((this.now() - this.since) / 100) / 10;
    this.log.info(
      { cluster: this.cluster, seconds, refused: this.refusals },
      'database reachable again',
    );
    this.since = null;
    this.refusals = 0;
  }
}
