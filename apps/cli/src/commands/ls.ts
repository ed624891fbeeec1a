import type { Command } from 'commander';
import { treeSize } from '@svc/blocks';
import { resolveCollectionPath } from '../files/collection-path';
import { withContext } from './run';

/** `svc ls <collection>[/<path>]`: a directory's entries, or one file. */
export function register(program: Command): void {
  program
    .command('ls')
    .description('List the files of a collection, or of a directory in it')
    .argument('<collection>', 'a collection uuid or portable data hash, then /path if wanted')
    .action(
      withContext(async (ctx, arg: string) => {
        const { node, path } = await resolveCollectionPath(ctx.client(), arg);
        const rows =
          node.kind === 'file'
            ? [{ name: path.at(-1)!, type: 'file', size: node.size }]
            : [...node.children]
                .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                .map(([name, child]) => ({
                  name: child.kind === 'dir' ? `${name}/` : name,
                  type: child.kind === 'dir' ? 'directory' : 'file',
                  size: treeSize(child),
                }));
        if (ctx.out.json) return ctx.out.rows(['name', 'type', 'size'], rows);
        ctx.out.rows(['size', 'name'], rows);
      }),
    );
}
