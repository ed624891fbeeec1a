import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { endpointId } from '@svc/contract';
import { treeSize } from '@svc/blocks';
import { download } from '../files/download';
import { isCollectionPath, resolveCollectionPath } from '../files/collection-path';
import { Progress } from '../files/progress';
import { usageError } from '../exit-codes';
import type { Context } from '../context';
import { endpointFor, resourceOfId, checkAttributes } from '../resources';
import { threadsOf } from './put';
import { collect, listOf, withContext } from './run';

/** Where a file or directory of a collection lands: into an existing directory, or at `dest`. */
function targetPath(dest: string, name: string | undefined, isFile: boolean): string {
  const intoDir = existsSync(dest) && statSync(dest).isDirectory();
  if (isFile && intoDir && name !== undefined) return join(dest, name);
  if (!isFile && existsSync(dest) && !intoDir)
    throw usageError(`${dest} is a file; a directory is downloaded into a directory`);
  return dest;
}

/** `svc get <collection>[/<path>] <destination>`: files out of a collection. */
async function getFiles(ctx: Context, arg: string, dest: string, threads: number) {
  if (!isCollectionPath(arg))
    throw usageError('svc get with a destination takes <collection uuid or pdh>[/<path>]');
  const client = ctx.client();
  const { node, path } = await resolveCollectionPath(client, arg);
  const target = targetPath(dest, path.at(-1), node.kind === 'file');
  const progress = new Progress('get', treeSize(node));
  const files = await download(client.blocks, node, target, threads, progress);
  progress.finish(`, ${files} files`);
}

/**
 * `svc get <uuid>`: any object, its type read from the uuid; with a destination, the files
 * of a collection (or of a path in it) are downloaded there.
 */
export function register(program: Command): void {
  program
    .command('get')
    .description(
      'Show one object (its type comes from the uuid; a portable data hash names a collection), or download files: svc get <collection>[/<path>] <destination>',
    )
    .argument('<uuid>', 'object uuid, or <collection>[/<path>] with a destination')
    .argument('[destination]', 'download the collection’s files (or the path’s) here')
    .option('-s, --select <attributes>', 'attributes to show, comma-separated', collect)
    .option('--threads <n>', 'blocks downloaded at once', '4')
    .action(
      withContext(
        async (
          ctx,
          uuid: string,
          destination: string | undefined,
          opts: { select?: string[]; threads: string },
        ) => {
          if (destination !== undefined)
            return getFiles(ctx, uuid, destination, threadsOf(opts.threads));
          const r = resourceOfId(uuid);
          const select = listOf(opts.select);
          if (select) checkAttributes(r, select, '--select');
          const endpoint = endpointFor(r, 'get');
          const obj = await ctx.client().call(endpointId(endpoint), {
            uuid,
            ...(select ? { select } : {}),
          });
          ctx.out.object(obj as Record<string, unknown>);
        },
      ),
    );
}
