import type { Command } from 'commander';
import { basename } from 'node:path';
import { localTree } from '../files/walk';
import { MAX_BLOCK_SIZE } from '@svc/client';
import { upload } from '../files/upload';
import { Progress } from '../files/progress';
import { PutStateFile } from '../files/put-state';
import { usageError } from '../exit-codes';
import type { Context } from '../context';
import { withContext } from './run';

export interface PutOptions {
  project?: string;
  name?: string;
  threads: string;
}

/** Block size: 64 MiB; `SVC_BLOCK_SIZE` may make it smaller (tests, small machines). */
function blockSizeOf(env: NodeJS.ProcessEnv): number {
  const raw = env['SVC_BLOCK_SIZE'];
  const n = raw ? Number(raw) : MAX_BLOCK_SIZE;
  if (!Number.isInteger(n) || n < 1 || n > MAX_BLOCK_SIZE)
    throw usageError(`SVC_BLOCK_SIZE must be an integer from 1 to ${MAX_BLOCK_SIZE}`);
  return n;
}

export const threadsOf = (raw: string): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw usageError('--threads must be from 1 to 64');
  return n;
};

/** `svc put <paths…>`: files and directories into a new collection. */
export function register(program: Command): void {
  program
    .command('put')
    .description(
      'Upload files and directories into a new collection (one directory: its contents at the top). An interrupted upload resumes when run again.',
    )
    .argument('<paths...>', 'files and directories')
    .option('--project <uuid>', 'the project that owns the collection (default: your home)')
    .option('--name <name>', 'the collection name (default: the first path and the time)')
    .option('--threads <n>', 'blocks uploaded at once', '4')
    .action(
      withContext(async (ctx, paths: string[], opts: PutOptions) => {
        const client = ctx.client();
        const manifest = await uploadPaths(ctx, paths, opts);
        const name = opts.name ?? `${basename(paths[0]!)} uploaded ${new Date().toISOString()}`;
        const collection = await client.api.collections.create({
          attributes: {
            manifest_text: manifest.text,
            name,
            ...(opts.project ? { owner_uuid: opts.project } : {}),
          },
          // Only the uuid is printed: the server then neither signs nor sends back the
          // manifest (a quarter of a megabyte for 10,000 files).
          ...(ctx.out.json ? {} : { select: ['uuid'] }),
        });
        manifest.done();
        if (ctx.out.json) ctx.out.object(collection as unknown as Record<string, unknown>);
        else ctx.out.line(collection.uuid);
      }),
    );
}

/**
 * Uploads files and directories as blocks, `--threads` at once with progress on stderr, and
 * answers the manifest text. An interrupted upload resumes when run again with the same
 * arguments; `done()` forgets it once the collection is made.
 */
export async function uploadPaths(
  ctx: Context,
  paths: string[],
  opts: PutOptions,
): Promise<{ text: string; done: () => void }> {
  const threads = threadsOf(opts.threads);
  const blockSize = blockSizeOf(ctx.env);
  const tree = localTree(paths);
  const client = ctx.client();
  const total = tree.files.reduce((n, f) => n + f.size, 0);
  const state = new PutStateFile(
    ctx.env,
    client.baseUrl,
    tree.files,
    blockSize,
    JSON.stringify([client.token, opts.project ?? null, opts.name ?? null]),
  );
  const progress = new Progress('put', total);
  if (state.storedCount > 0) ctx.out.note(`resuming: ${state.storedCount} blocks already stored`);
  const { manifest, skipped } = await upload(client.blocks, tree, {
    blockSize,
    threads,
    state,
    progress,
  });
  progress.finish(skipped > 0 ? ` (${skipped} blocks stored before)` : '');
  return { text: manifest, done: () => state.remove() };
}
