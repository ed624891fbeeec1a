import type { RunnerInput } from '@svc/runner';

/** What a dispatcher knows of one runner it started (execution.md §2). */
export interface RunnerRecord {
  uuid: string;
  /** The scoped token made for this runner (deleted when it ends). */
  recordTokenUuid: string;
  vcpus: number;
  ram: number;
  /**
   * The container's command has exited: its runner still saves the output and logs and
   * makes the final update, but holds none of the container's CPU or RAM.
   */
  commandEnded?: boolean;
}

/** Where runners run: this machine's processes or a Slurm cluster. */
export interface Backend {
  readonly name: string;
  /** Runners alive now, by container uuid. Throws when the backend cannot be asked. */
  list(): Promise<Map<string, RunnerRecord>>;
  /**
   * The runners known without asking (local: those the last `list()` found and those started
   * since, less those that ended), for placing containers between polls.
   */
  known?(): RunnerRecord[];
  /** Whether a container of this size could ever run here; the message when not. */
  neverFits(vcpus: number, ram: number): string | null;
  /** Whether it fits now beside the given runners. */
  fitsNow(vcpus: number, ram: number, running: RunnerRecord[]): boolean;
  /**
   * Starts one runner; `container` is the record as the lock answered it (priority,
   * scheduling_parameters; a local runner takes the whole record and need not read it).
   */
  start(
    record: RunnerRecord,
    input: RunnerInput,
    container?: Record<string, unknown>,
  ): Promise<void>;
  /** Follows a priority change of a started container (Slurm: the queued job's nice). */
  setPriority?(uuid: string, priority: bigint): Promise<void>;
  /** Asks a runner to stop (it cancels its container). */
  stop(uuid: string): Promise<void>;
  /** Runners that ended since the last call (their tokens can go). */
  ended(): RunnerRecord[];
  /** True when a runner ended since the last `ended()` (room may have been freed). */
  changed(): boolean;
  /**
   * Calls `listener` whenever room may have been freed (a command exited, a runner ended), so
   * that the dispatcher can start the next container at once rather than at its next poll.
   */
  onRoom?(listener: () => void): void;
  /** Gets ready to start runners soon (local: a runner process waiting for work). */
  prepare?(): void;
  /** Lets go of what the backend holds (timers, waiting runners); runners keep running. */
  close?(): void;
}
