import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';

/** What the runner reads of a tar entry's header. */
export interface TarHeader {
  /** Path inside the archive, without a leading `./` or `/`. */
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';
  mode: number;
  linkname: string;
}

/** One entry of a tar stream being read: its header, and its bytes as a stream. */
export type TarEntryStream = ReturnType<typeof extract> extends AsyncIterable<infer S> ? S : never;

export const normalizeTarPath = (p: string): string =>
  p.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '');

const TYPES: Record<string, TarHeader['type']> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'dir',
  symlink: 'symlink',
  link: 'hardlink',
};

/**
 * Calls `each` for every entry of a tar stream in order, with the entry's bytes as a stream
 * that `each` reads or leaves (it is drained after). Long names and pax headers are applied by
 * the parser; memory does not grow with an entry's size.
 */
export async function eachTarEntry(
  source: Readable,
  each: (header: TarHeader, body: TarEntryStream) => Promise<void>,
): Promise<void> {
  const parser = extract();
  const feeding = pipeline(source, parser);
  try {
    for await (const entry of parser) {
      const h = entry.header;
      await each(
        {
          path: normalizeTarPath(h.name),
          type: TYPES[h.type ?? 'file'] ?? 'other',
          mode: (h.mode ?? 0o644) & 0o7777,
          linkname: h.linkname ?? '',
        },
        entry,
      );
      entry.resume();
    }
  } catch (err) {
    source.destroy();
    await feeding.catch(() => undefined);
    throw err;
  }
  await feeding;
}

/** A tar file's bytes as a stream, gunzipped when it is gzip-compressed (image layers may be). */
export async function tarFileStream(path: string): Promise<Readable> {
  const fh = await open(path, 'r');
  const magic = Buffer.alloc(2);
  try {
    await fh.read(magic, 0, 2, 0);
  } finally {
    await fh.close();
  }
  const raw = createReadStream(path);
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) return raw;
  const gunzip = createGunzip();
  pipeline(raw, gunzip).catch((err: Error) => gunzip.destroy(err));
  return gunzip;
}
