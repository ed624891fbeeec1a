import { mkdir } from 'node:fs/promises';
import { writeFiles, type BlockClient } from '@svc/client';
import { treeEntries, type TreeNode } from '@svc/blocks';
import type { Progress } from './progress';

/**
 * Writes `node` (a file or a directory of the collection) to `dest`, empty directories
 * included: every block read once, `threads` at once, streamed into place and checked against
 * its size and MD5 (a file with a bad block is removed, never left wrong).
 */
export async function download(
  blocks: BlockClient,
  node: TreeNode,
  dest: string,
  threads: number,
  progress: Progress,
): Promise<number> {
  const { files, dirs } = treeEntries(node, dest);
  for (const d of dirs) await mkdir(d, { recursive: true });
  await writeFiles(blocks, files, { threads, onBytes: (n) => progress.add(n) });
  return files.length;
}
