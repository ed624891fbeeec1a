import type { Json } from './json';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { imageLayout } from '@svc/client';
import { eachTarEntry, normalizeTarPath } from './tar-read';

/** What the runner uses of an image's configuration (execution.md §3.1). */
export interface ImageConfig {
  Env: string[];
  User: string;
  WorkingDir: string;
}

/** An image archive taken apart: its layer files in order, and its configuration. */
export interface ImageParts {
  layers: string[];
  config: ImageConfig;
}

/** A link member: where it points, as a path of the archive. */
const linkTarget = (path: string, type: string, linkname: string): string =>
  type === 'symlink'
    ? posix.normalize(posix.join(posix.dirname(path), linkname))
    : normalizeTarPath(linkname);

/**
 * Every regular file of an archive written to a file of its own in `dir`, streamed; answers
 * the archive's paths → those files (links, as `docker save` writes for a layer two images
 * share, resolved to their target's file).
 */
async function extractMembers(archive: string, dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const links: [string, string][] = [];
  await mkdir(dir, { recursive: true });
  await eachTarEntry(createReadStream(archive), async (h, body) => {
    if (h.type === 'file') {
      const file = join(dir, `member-${files.size}`);
      await pipeline(body, createWriteStream(file));
      files.set(h.path, file);
    } else if (h.type === 'symlink' || h.type === 'hardlink') {
      links.push([h.path, linkTarget(h.path, h.type, h.linkname)]);
    }
  });
  for (const [path, target] of links) {
    const file = files.get(target);
    if (file) files.set(path, file);
  }
  return files;
}

const configOf = (c: Json): ImageConfig => ({
  Env: Array.isArray(c?.Env) ? c.Env : [],
  User: typeof c?.User === 'string' ? c.User : '',
  WorkingDir: typeof c?.WorkingDir === 'string' ? c.WorkingDir : '',
});

/**
 * Takes apart an image archive as written by `docker save` or `podman save` (its layout read
 * by imageLayout): its members go to files in `dir`, read as streams, so memory does not grow
 * with the image's size. Answers the layer files in order and the configuration.
 */
export async function readImageArchive(archive: string, dir: string): Promise<ImageParts> {
  const files = await extractMembers(archive, dir);
  const fileOf = (path: string, what: string): string => {
    const f = files.get(normalizeTarPath(path));
    if (!f) throw new Error(`${what} ${path} missing from the archive`);
    return f;
  };
  const json = async (path: string): Promise<Json | undefined> => {
    const f = files.get(normalizeTarPath(path));
    return f ? JSON.parse(await readFile(f, 'utf8')) : undefined;
  };
  const layout = await imageLayout(json);
  const configJson = JSON.parse(await readFile(fileOf(layout.config, 'configuration'), 'utf8'));
  return {
    layers: layout.layers.map((p) => fileOf(p, 'layer')),
    config: configOf(configJson?.config ?? configJson?.Config ?? {}),
  };
}
