export { Dispatcher, type DispatcherOptions } from './dispatcher';
export { LocalBackend } from './local';
export type { Backend, RunnerRecord } from './backend';
export { startDispatcher, type DispatcherSettings } from './start';
export { SlurmBackend, niceOf } from './slurm';
