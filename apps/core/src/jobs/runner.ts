import { isDatabaseUnavailable } from '../db/pg-error';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { ClusterConfig } from '@svc/config';
import type { Db } from '../db/db';

/** What a job's run gets: the cluster it works for and a signal that says stop. */
export interface JobContext {
  db: Db;
  cluster: Readonly<ClusterConfig>;
  log: Logger;
  /** Aborted when the core shuts down: a long run should stop at its next safe point. */
  signal: AbortSignal;
}

/**
 * Work that is not a request: periodic (trash sweep, block garbage collection) or queued
 * (a container to finalise, triggered by a write). A run may resolve to an object of counts,
 * which goes into its log line.
 */
export interface Job {
  readonly name: string;
  /** Milliseconds between the end of one run and the start of the next; 0 runs only on trigger. */
  readonly everyMs: number;
  run(ctx: JobContext): Promise<unknown>;
}

export interface JobStats {
  runs: number;
  skipped: number;
  failures: number;
  lastDurationMs: number | null;
}

/** A stable advisory-lock key per job name, the same in every process on the database. */
export function jobLockKey(name: string): bigint {
  const digest = createHash('sha256').update(`svc job ${name}`).digest();
  return digest.readBigInt64BE(0);
}

interface Slot {
  job: Job;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  /** A trigger arrived during a run: run again right after. */
  again: boolean;
  stats: JobStats;
}

/**
 * The core's one place for background work. Each job runs at most once at a time per cluster,
 * even when several core processes share the database (a PostgreSQL advisory lock per job;
 * a process that cannot take it skips that round). Runs and failures are logged; `stop` waits
 * for runs in flight after telling them to stop.
 */
export class JobRunner {
  private readonly slots = new Map<string, Slot>();
  private readonly abort = new AbortController();
  private started = false;

  constructor(
    private readonly deps: { db: Db; cluster: Readonly<ClusterConfig>; log: Logger },
    jobs: readonly Job[],
  ) {
    for (const job of jobs) {
      if (this.slots.has(job.name)) throw new Error(`job ${job.name} registered twice`);
      const stats = { runs: 0, skipped: 0, failures: 0, lastDurationMs: null };
      this.slots.set(job.name, { job, timer: null, running: null, again: false, stats });
    }
  }

  /** Periodic jobs run first one period after start (start-up stays quick); triggers at once. */
  start(): void {
    this.started = true;
    for (const slot of this.slots.values()) {
      if (slot.job.everyMs > 0) this.schedule(slot, slot.job.everyMs);
    }
  }

  /** Asks for a run as soon as possible (queued work); runs once more if one is in flight. */
  trigger(name: string): void {
    const slot = this.slotOf(name);
    if (this.abort.signal.aborted) return;
    if (slot.running) {
      slot.again = true;
      return;
    }
    this.schedule(slot, 0);
  }

  /** Runs a job now and waits for it (tests, administration). */
  async runNow(name: string): Promise<void> {
    const slot = this.slotOf(name);
    if (slot.running) await slot.running;
    await this.execute(slot);
  }

  /**
   * Runs a job once more and waits for that run (the trash-sweep trigger): a run in progress,
   * here or in another process sharing the database, is waited for first, so passes never
   * overlap and the caller's pass starts after the request arrived. Fails if the job fails.
   */
  async runOwnPass(name: string, pollMs = 50): Promise<void> {
    const slot = this.slotOf(name);
    for (;;) {
      if (slot.running) await slot.running.catch(() => undefined);
      const run = this.deps.db.withSessionLock(jobLockKey(slot.job.name), () =>
        slot.job.run({
          db: this.deps.db,
          cluster: this.deps.cluster,
          log: this.deps.log,
          signal: this.abort.signal,
        }),
      );
      slot.running = run.then(() => undefined);
      const outcome = await run.finally(() => (slot.running = null));
      if (outcome.ran) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  stats(): Record<string, Readonly<JobStats>> {
    return Object.fromEntries([...this.slots].map(([name, slot]) => [name, { ...slot.stats }]));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    for (const slot of this.slots.values()) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
    }
    await Promise.all([...this.slots.values()].map((s) => s.running?.catch(() => undefined)));
  }

  private slotOf(name: string): Slot {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`no job named ${name}`);
    return slot;
  }

  private schedule(slot: Slot, delayMs: number): void {
    if (!this.started || this.abort.signal.aborted) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      slot.timer = null;
      void this.execute(slot).finally(() => this.afterRun(slot));
    }, delayMs);
    slot.timer.unref();
  }

  private afterRun(slot: Slot): void {
    if (slot.again) {
      slot.again = false;
      this.schedule(slot, 0);
    } else if (slot.job.everyMs > 0) {
      this.schedule(slot, slot.job.everyMs);
    }
  }

  private execute(slot: Slot): Promise<void> {
    const run = this.runLocked(slot);
    slot.running = run;
    return run.finally(() => {
      if (slot.running === run) slot.running = null;
    });
  }

  private async runLocked(slot: Slot): Promise<void> {
    const { db, cluster } = this.deps;
    const log = this.deps.log.child({ job: slot.job.name, cluster: cluster.ClusterID });
    const started = Date.now();
    try {
      const outcome = await db.withSessionLock(jobLockKey(slot.job.name), () =>
        slot.job.run({ db, cluster, log, signal: this.abort.signal }),
      );
      if (!outcome.ran) {
        slot.stats.skipped += 1;
        log.debug('job skipped: another process is running it');
        return;
      }
      slot.stats.runs += 1;
      slot.stats.lastDurationMs = Date.now() - started;
      const counts =
        typeof outcome.value === 'object' && outcome.value !== null ? outcome.value : {};
      log.info({ durationMs: slot.stats.lastDurationMs, ...counts }, 'job ran');
    } catch (err) {
      slot.stats.failures += 1;
      // While the database is out every run fails the same way: one line each, no stack.
      if (isDatabaseUnavailable(err)) {
        log.warn({ error: (err as Error).message }, 'job failed: database unavailable');
      } else {
        log.error({ err, durationMs: Date.now() - started }, 'job failed');
      }
    }
  }
}
