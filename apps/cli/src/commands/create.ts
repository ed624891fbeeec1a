import type { Command } from 'commander';
import { endpointId } from '@svc/contract';
import { readAttributes } from '../input';
import { endpointFor, resolveType, typesWith } from '../resources';
import { withContext } from './run';

/** `svc create <type> -f file.json|-`. */
export function register(program: Command): void {
  program
    .command('create')
    .description('Create an object from a JSON file of attributes (or - for standard input)')
    .argument('<type>', `one of: ${typesWith('create').join(', ')}`)
    .requiredOption(
      '-f, --file <file>',
      'JSON object of attributes, bare or wrapped; - reads standard input',
    )
    .option('--ensure-unique-name', 'rename the object instead of failing on a name clash')
    .addHelpText(
      'after',
      `\nExample:\n  echo '{"name": "Genome runs", "group_class": "project"}' | svc create groups -f -`,
    )
    .action(
      withContext(async (ctx, type: string, opts: { file: string; ensureUniqueName?: boolean }) => {
        const r = resolveType(type, 'create');
        const attributes = await readAttributes(opts.file, r.singular);
        const created = await ctx.client().call(endpointId(endpointFor(r, 'create')), {
          attributes,
          ...(opts.ensureUniqueName ? { ensure_unique_name: true } : {}),
        });
        ctx.out.object(created as Record<string, unknown>);
      }),
    );
}
