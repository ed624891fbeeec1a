export { runCli } from './main';
export { buildProgram } from './program';
export { EXIT } from './exit-codes';
