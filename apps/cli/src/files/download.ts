import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlockClient } from '@svc/client';
import type { DirNode, FileNode, TreeNode } from '@svc/blocks';
import { inParallel } from './pool';
import type { Progress } from './progress';

/** A piece of a block that goes to a file. */
interface Target {
  path: string;
  fileOffset: number;
  blockOffset: number;
  length: number;
}

/** Every file under `node` with where it goes under `dest`; empty directories too. */
function filesOf(
  node: TreeNode,
  dest: string,
  out: { files: [string, FileNode][]; dirs: string[] },
) {
  if (node.kind === 'file') {
    out.files.push([dest, node]);
    return;
  }
  out.dirs.push(dest);
  for (const [name, child] of (node as DirNode).children) filesOf(child, join(dest, name), out);
}

/**
 * Writes `node` (a file or a directory of the collection) to `dest`: every block read once,
 * `threads` at once, its size and MD5 checked before any of it is written, then its pieces
 * written in place in their files.
 */
export async function download(
  blocks: BlockClient,
  node: TreeNode,
  dest: string,
  threads: number,
  progress: Progress,
): Promise<number> {
  const out = { files: [] as [string, FileNode][], dirs: [] as string[] };
  filesOf(node, dest, out);
  for (const d of out.dirs) await mkdir(d, { recursive: true });
  const byBlock = new Map<string, Target[]>();
  for (const [path, file] of out.files) {
    await mkdir(dirname(path), { recursive: true });
    const fh = await open(path, 'w');
    await fh.truncate(file.size);
    await fh.close();
    let fileOffset = 0;
    for (const s of file.segments) {
      const list = byBlock.get(s.locator) ?? [];
      list.push({ path, fileOffset, blockOffset: s.offset, length: s.length });
      byBlock.set(s.locator, list);
      fileOffset += s.length;
    }
  }
  await inParallel([...byBlock], threads, async ([locator, targets]) => {
    const data = await blocks.get(locator);
    let path: string | null = null;
    let fh: FileHandle | null = null;
    try {
      for (const t of targets) {
        if (path !== t.path || !fh) {
          await fh?.close();
          fh = await open(t.path, 'r+');
          path = t.path;
        }
        await fh.write(data, t.blockOffset, t.length, t.fileOffset);
      }
    } finally {
      await fh?.close();
    }
    progress.add(targets.reduce((n, t) => n + t.length, 0));
  });
  return out.files.length;
}
