import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BlockClient } from './blocks';

/** A file as a manifest describes it: byte ranges of blocks, in order. */
export interface FilePieces {
  segments: readonly { locator: string; offset: number; length: number }[];
  size: number;
}

/** A range of a block that goes to a place in a file. */
interface Target {
  path: string;
  fileOffset: number;
  blockOffset: number;
  length: number;
}

export interface WriteFilesOptions {
  /** Blocks read at once (default 1). */
  threads?: number;
  /** Told the bytes of each block's pieces once they are written. */
  onBytes?: (n: number) => void;
}

/** The ranges of each block, in the order blocks are first met. */
function targetsByBlock(files: readonly [string, FilePieces][]): Map<string, Target[]> {
  const byBlock = new Map<string, Target[]>();
  for (const [path, file] of files) {
    let fileOffset = 0;
    for (const s of file.segments) {
      const list = byBlock.get(s.locator) ?? [];
      list.push({ path, fileOffset, blockOffset: s.offset, length: s.length });
      byBlock.set(s.locator, list);
      fileOffset += s.length;
    }
  }
  return byBlock;
}

/** Writes the pieces of one block's stream to their places, files opened as they are met. */
async function writeBlock(blocks: BlockClient, locator: string, targets: Target[]): Promise<void> {
  const handles = new Map<string, FileHandle>();
  const handle = async (path: string) => {
    let fh = handles.get(path);
    if (!fh) handles.set(path, (fh = await open(path, 'r+')));
    return fh;
  };
  try {
    await blocks.read(locator, async (piece, at) => {
      const end = at + piece.length;
      for (const t of targets) {
        const from = Math.max(at, t.blockOffset);
        const to = Math.min(end, t.blockOffset + t.length);
        if (from >= to) continue;
        const fh = await handle(t.path);
        await fh.write(piece, from - at, to - from, t.fileOffset + (from - t.blockOffset));
      }
    });
  } finally {
    await Promise.all([...handles.values()].map((fh) => fh.close()));
  }
}

/**
 * Writes files from their blocks: each block read once (a block shared by several small files
 * too), `threads` at once, as a stream whose pieces are written in place as they arrive, so
 * memory does not grow with the size of a file or a block. Every block is checked against its
 * size and MD5 (other copies are tried first); when one cannot be read right, the files it
 * touched are removed before the error is thrown, so no wrong file is left behind.
 */
export async function writeFiles(
  blocks: BlockClient,
  files: readonly [string, FilePieces][],
  opts: WriteFilesOptions = {},
): Promise<void> {
  for (const [path, file] of files) {
    await mkdir(dirname(path), { recursive: true });
    const fh = await open(path, 'w');
    await fh.truncate(file.size);
    await fh.close();
  }
  const queue = [...targetsByBlock(files)];
  let failed = false;
  const worker = async () => {
    for (let next = queue.shift(); next && !failed; next = queue.shift()) {
      const [locator, targets] = next;
      try {
        await writeBlock(blocks, locator, targets);
      } catch (err) {
        failed = true;
        await Promise.all(
          [...new Set(targets.map((t) => t.path))].map((p) => rm(p, { force: true })),
        );
        throw err;
      }
      opts.onBytes?.(targets.reduce((n, t) => n + t.length, 0));
    }
  };
  const threads = Math.max(1, Math.min(opts.threads ?? 1, queue.length));
  await Promise.all(Array.from({ length: threads }, worker));
}

/** Largest block the block service takes (storage.md §4). */
export const MAX_BLOCK_SIZE = 64 * 1024 * 1024;

/** The MD5 of bytes `start`..`start + size` of a file, read as a stream. */
async function md5Of(path: string, start: number, size: number): Promise<string> {
  const md5 = createHash('md5');
  if (size === 0) return md5.digest('hex');
  for await (const piece of createReadStream(path, { start, end: start + size - 1 })) {
    md5.update(piece as Buffer);
  }
  return md5.digest('hex');
}

/**
 * Stores a file of `size` bytes from disk as blocks of at most 64 MiB, each read as a stream
 * (twice: to hash it, then to send it), so memory does not grow with the file's size. Answers
 * the file's pieces (signed locators).
 */
export async function storeFile(
  blocks: BlockClient,
  path: string,
  size: number,
): Promise<FilePieces['segments'][number][]> {
  const segments: FilePieces['segments'][number][] = [];
  for (let at = 0; at < size; at += MAX_BLOCK_SIZE) {
    const length = Math.min(MAX_BLOCK_SIZE, size - at);
    const hash = await md5Of(path, at, length);
    const { locator } = await blocks.putStream(hash, length, () =>
      createReadStream(path, { start: at, end: at + length - 1 }),
    );
    segments.push({ locator, offset: 0, length });
  }
  return segments;
}
