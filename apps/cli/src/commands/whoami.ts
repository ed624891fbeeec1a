import type { Command } from 'commander';
import { withContext } from './run';

/** `svc whoami`: the token's user, and where it is. */
export function register(program: Command): void {
  program
    .command('whoami')
    .description('Show the user of the token, and the host')
    .action(
      withContext(async (ctx) => {
        const client = ctx.client();
        const me = await client.api.users.current();
        if (ctx.out.json) return ctx.out.object(me);
        const { uuid, username, email, full_name, is_admin, is_active } = me;
        ctx.out.object({
          host: client.baseUrl,
          uuid,
          username,
          email,
          full_name,
          is_admin,
          is_active,
        });
      }),
    );
}
