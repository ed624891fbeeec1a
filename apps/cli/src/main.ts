import { CommanderError } from 'commander';
import { describeFailure, EXIT } from './exit-codes';
import { buildProgram } from './program';

/** Runs one `svc` command line; resolves to the exit status. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version exit 0; every other complaint of the parser is a usage error.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const { message, exitCode } = describeFailure(err);
    process.stderr.write(`svc: ${message}\n`);
    return exitCode;
  }
}

/** The `svc` executable (bin/svc.js): this process's arguments, its exit status. */
export function main(): void {
  // `svc list … | head`: the reader went away, which is not a failure of the command.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    throw err;
  });
  void runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
