import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { BlockClient } from '@svc/client';
import { dirAt, newDir, serializeManifestTree, type FileNode } from '@svc/blocks';
import { planBlocks, type PlannedBlock } from './layout';
import { inParallel } from './pool';
import type { Progress } from './progress';
import type { PutStateFile } from './put-state';
import type { LocalFile, LocalTree } from './walk';

/** Pieces up to this size are read synchronously: many small files read 7× faster so. */
const SYNC_READ_BYTES = 1 << 20;

function readSmall(path: string, buf: Buffer, at: number, length: number, from: number): void {
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buf, at + done, length - done, from + done);
      if (n === 0) throw new Error(`${path} changed while reading`);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads a planned block's pieces into `buf` (opening each file once per block). */
async function fill(block: PlannedBlock, files: readonly LocalFile[], buf: Buffer): Promise<void> {
  let at = 0;
  for (const piece of block.pieces) {
    if (piece.length <= SYNC_READ_BYTES) {
      readSmall(files[piece.file]!.source, buf, at, piece.length, piece.fileOffset);
      at += piece.length;
      continue;
    }
    const fh = await open(files[piece.file]!.source, 'r');
    try {
      let done = 0;
      while (done < piece.length) {
        const { bytesRead } = await fh.read(
          buf,
          at + done,
          piece.length - done,
          piece.fileOffset + done,
        );
        if (bytesRead === 0) throw new Error(`${files[piece.file]!.source} changed while reading`);
        done += bytesRead;
      }
    } finally {
      await fh.close();
    }
    at += piece.length;
  }
}

export interface UploadOptions {
  blockSize: number;
  threads: number;
  state: PutStateFile;
  progress: Progress;
}

/**
 * Uploads the files' blocks, `threads` at once, each worker with one buffer of its own, and
 * answers the manifest naming them. Blocks already stored by an interrupted run are skipped.
 */
export async function upload(
  blocks: BlockClient,
  tree: LocalTree,
  opts: UploadOptions,
): Promise<{ manifest: string; skipped: number }> {
  const layout = planBlocks(
    tree.files.map((f) => f.size),
    opts.blockSize,
  );
  const locators: string[] = new Array<string>(layout.blocks.length);
  const todo: number[] = [];
  let skipped = 0;
  layout.blocks.forEach((b, i) => {
    const known = opts.state.stored(i);
    if (known) {
      locators[i] = known;
      skipped++;
      opts.progress.add(b.size);
    } else todo.push(i);
  });
  const largest = Math.max(0, ...todo.map((i) => layout.blocks[i]!.size));
  const buffers: Buffer[] = [];
  await inParallel(todo, opts.threads, async (i, worker) => {
    const block = layout.blocks[i]!;
    buffers[worker] ??= Buffer.allocUnsafe(largest);
    const data = buffers[worker].subarray(0, block.size);
    await fill(block, tree.files, data);
    const hash = createHash('md5').update(data).digest('hex');
    const stored = await blocks.put(data, hash);
    locators[i] = stored.locator;
    opts.state.record(i, stored.locator);
    opts.progress.add(block.size);
  });
  const root = newDir();
  for (const d of tree.emptyDirs) dirAt(root, d, true);
  tree.files.forEach((f, n) => {
    const node: FileNode = {
      kind: 'file',
      size: f.size,
      segments: layout.files[n]!.map((r) => ({
        locator: locators[r.block]!,
        offset: r.offset,
        length: r.length,
      })),
    };
    dirAt(root, f.target.slice(0, -1), true)!.children.set(f.target.at(-1)!, node);
  });
  return { manifest: serializeManifestTree(root), skipped };
}
