import type { Command } from 'commander';
import { endpointId } from '@svc/contract';
import { endpointFor, resourceOfId } from '../resources';
import { withContext } from './run';

/** `svc delete <uuid>`: projects and collections go to the trash. */
export function register(program: Command): void {
  program
    .command('delete')
    .description('Delete an object (projects and collections go to the trash)')
    .argument('<uuid>', 'object uuid')
    .action(
      withContext(async (ctx, uuid: string) => {
        const r = resourceOfId(uuid);
        const deleted = (await ctx
          .client()
          .call(endpointId(endpointFor(r, 'delete')), { uuid })) as Record<string, unknown>;
        if (ctx.out.json) ctx.out.object(deleted);
        else ctx.out.line(`${deleted['is_trashed'] === true ? 'trashed' : 'deleted'} ${uuid}`);
      }),
    );
}
