export { runContainer } from './run';
export { sandboxProblem } from './sandbox';
export type { RunnerInput } from './settings';
export { defaultSettings } from './settings';
export { writeTar, type TarInput } from './tar-write';
export { readTar } from './tar';
export { timestamp } from './logs';
export { CollectionStore } from './store';
export type { Json } from './json';
