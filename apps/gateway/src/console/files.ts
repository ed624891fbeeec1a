import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { lookup } from 'mime-types';

/** One file of the built console, with its precompressed forms when the build made them. */
export interface ConsoleFile {
  body: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  type: string;
  etag: string;
}

const readOptional = (path: string): Buffer | null =>
  existsSync(path) ? readFileSync(path) : null;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/**
 * Every file of the console's build (`apps/console/dist`), by URL path, read once. Only these
 * paths are ever served: a request names a key of this map or gets index.html, so no path
 * from a request reaches the file system.
 */
export function readConsoleFiles(dir: string): Map<string, ConsoleFile> | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = new Map<string, ConsoleFile>();
  for (const path of walk(dir)) {
    if (path.endsWith('.br') || path.endsWith('.gz')) continue;
    const body = readFileSync(path);
    const url = `/${relative(dir, path).split(sep).join('/')}`;
    files.set(url, {
      body,
      br: readOptional(`${path}.br`),
      gzip: readOptional(`${path}.gz`),
      type: lookup(path) || 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    });
  }
  return files;
}
