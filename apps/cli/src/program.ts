import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { COMMANDS } from './commands';
import { EXIT_CODES_HELP } from './exit-codes';

const VERSION = (
  JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;

/** The `svc` command line: global options, every command, help texts. */
export function buildProgram(): Command {
  const program = new Command('svc')
    .description(
      'Command-line client of the svc API. Host and token come from --host, SVC_API_HOST and SVC_API_TOKEN, or `svc login`.',
    )
    .version(VERSION)
    .option('--host <host>', 'API host: host[:port] (HTTPS) or a URL')
    .option('--json', 'print JSON for scripts instead of tables')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP);
  for (const command of COMMANDS) command.register(program);
  program.commands.forEach((c) => c.exitOverride());
  return program;
}
