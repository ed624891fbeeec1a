import type { Command } from 'commander';
import * as call from './call';
import * as containerRun from './container-run';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as image from './image';
import * as list from './list';
import * as login from './login';
import * as logs from './logs';
import * as ls from './ls';
import * as put from './put';
import * as share from './share';
import * as update from './update';
import * as whoami from './whoami';

/**
 * The commands, one module each, in the order `svc --help` shows them. A new command is a new
 * module with a `register(program)` here (container runs will join them).
 */
export const COMMANDS: readonly { register(program: Command): void }[] = [
  get,
  list,
  create,
  update,
  del,
  share,
  put,
  ls,
  whoami,
  login,
  containerRun,
  image,
  logs,
  call,
];
