import type { Command } from 'commander';
import { endpointId } from '@svc/contract';
import { readAttributes } from '../input';
import { endpointFor, resourceOfId } from '../resources';
import { withContext } from './run';

/** `svc update <uuid> -f file.json|-`: the attributes given are replaced, the others kept. */
export function register(program: Command): void {
  program
    .command('update')
    .description('Change attributes of an object from a JSON file (or - for standard input)')
    .argument('<uuid>', 'object uuid')
    .requiredOption(
      '-f, --file <file>',
      'JSON object of the attributes to change; - reads standard input',
    )
    .addHelpText(
      'after',
      `\nExample:\n  echo '{"description": "checked"}' | svc update home1-4zz18-0123456789abcde -f -`,
    )
    .action(
      withContext(async (ctx, uuid: string, opts: { file: string }) => {
        const r = resourceOfId(uuid);
        const attributes = await readAttributes(opts.file, r.singular);
        const updated = await ctx
          .client()
          .call(endpointId(endpointFor(r, 'update')), { uuid, attributes });
        ctx.out.object(updated as Record<string, unknown>);
      }),
    );
}
