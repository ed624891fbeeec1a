import type { Command } from 'commander';
import { endpointId } from '@svc/contract';
import { endpointFor, resourceOfId, checkAttributes } from '../resources';
import { collect, listOf, withContext } from './run';

/** `svc get <uuid>`: any object, its type read from the uuid. */
export function register(program: Command): void {
  program
    .command('get')
    .description(
      'Show one object (its type comes from the uuid; a portable data hash names a collection)',
    )
    .argument('<uuid>', 'object uuid')
    .option('-s, --select <attributes>', 'attributes to show, comma-separated', collect)
    .action(
      withContext(async (ctx, uuid: string, opts: { select?: string[] }) => {
        const r = resourceOfId(uuid);
        const select = listOf(opts.select);
        if (select) checkAttributes(r, select, '--select');
        const endpoint = endpointFor(r, 'get');
        const obj = await ctx.client().call(endpointId(endpoint), {
          uuid,
          ...(select ? { select } : {}),
        });
        ctx.out.object(obj as Record<string, unknown>);
      }),
    );
}
