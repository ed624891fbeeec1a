import type { Command } from 'commander';
import { followRequest } from './follow';
import { withContext } from './run';

/** `svc logs <request>`: follows a container request's stdout and stderr until it ends. */
export function register(program: Command): void {
  program
    .command('logs')
    .description("Follow a container request's log (stdout and stderr) until it is Final")
    .argument('<request>', 'container request uuid')
    .action(
      withContext(async (ctx, uuid: string) => {
        await followRequest(ctx.client(), uuid, {
          out: (s) => process.stdout.write(s),
          err: (s) => process.stderr.write(s),
        });
      }),
    );
}
