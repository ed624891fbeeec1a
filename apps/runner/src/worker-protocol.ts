import type { RunnerInput } from './settings';

/** What a local dispatcher tells a runner worker over its IPC channel. */
export type WorkerMessage =
  | {
      kind: 'run';
      uuid: string;
      input: RunnerInput;
      work: string;
      stateFile: string;
      /** The container record the lock answered (the runner need not read it again). */
      container?: Record<string, unknown>;
    }
  | { kind: 'stop'; uuid: string };

/**
 * What a runner worker answers: `free` when a container's command has exited (the worker
 * takes another while it finishes that one), `done` when the container is final.
 */
export type WorkerReply =
  { kind: 'ready' } | { kind: 'free'; uuid: string } | { kind: 'done'; uuid: string; code: number };
