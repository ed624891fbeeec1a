import type { Command } from 'commander';
import { basename } from 'node:path';
import { readImageInfo, registerImage } from '@svc/client';
import { repoTagOf } from '@svc/contract';
import { usageError } from '../exit-codes';
import { uploadPaths } from './put';
import { withContext } from './run';

interface ImagePutOptions {
  project?: string;
  threads: string;
}

/**
 * `svc image put <archive.tar> <repo:tag>`: registers a container image (containers.md §6)
 * so that requests can name it: the archive (`docker save` or `podman save`) uploaded as a
 * collection of its own, then its `docker_image_hash` and `docker_image_repo+tag` links.
 */
export function register(program: Command): void {
  const image = program.command('image').description('Container images requests can name');
  image
    .command('put')
    .description(
      'Upload an image archive (docker save or podman save) and register it as repo:tag, so that container requests (and svc run --image) can name it',
    )
    .argument('<archive>', 'the image archive, a .tar file')
    .argument('<repo:tag>', 'the name to register it as (repo alone means repo:latest)')
    .option('--project <uuid>', 'the project that owns the image (default: your home)')
    .option('--threads <n>', 'blocks uploaded at once', '4')
    .action(
      withContext(async (ctx, archive: string, name: string, opts: ImagePutOptions) => {
        if (!archive.endsWith('.tar')) {
          throw usageError('the archive must be a .tar file (docker save or podman save)');
        }
        const repoTag = repoTagOf(name);
        const info = await readImageInfo(archive).catch((err: Error) => {
          throw usageError(`${archive}: ${err.message}`);
        });
        const client = ctx.client();
        const manifest = await uploadPaths(ctx, [archive], { ...opts, name: repoTag });
        const collection = await client.api.collections.create({
          attributes: {
            manifest_text: manifest.text,
            name: `Image ${repoTag} (${basename(archive)})`,
            properties: { 'docker-image-repo-tag': repoTag },
            ...(opts.project ? { owner_uuid: opts.project } : {}),
          },
          ensure_unique_name: true,
          select: ['uuid', 'portable_data_hash'],
        });
        manifest.done();
        await registerImage(client, collection.uuid, info, repoTag, opts.project);
        const result = {
          uuid: collection.uuid,
          portable_data_hash: collection.portable_data_hash,
          image_id: info.id,
          name: repoTag,
        };
        if (ctx.out.json) ctx.out.object(result);
        else ctx.out.line(`${repoTag} ${info.id} ${collection.portable_data_hash}`);
      }),
    );
}
