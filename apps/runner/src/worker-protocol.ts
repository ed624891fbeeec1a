import type { RunnerInput } from './settings';

/** What a local dispatcher tells a runner worker over its IPC channel. */
export type WorkerMessage =
  | { kind: 'run'; uuid: string; input: RunnerInput; work: string; stateFile: string }
  | { kind: 'stop'; uuid: string };

/** What a runner worker answers. */
export type WorkerReply = { kind: 'ready' } | { kind: 'done'; uuid: string; code: number };
