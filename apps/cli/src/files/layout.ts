/**
 * How `svc put` packs files into blocks: every file's bytes one after the other, cut into
 * blocks of at most `blockSize` (small files share blocks, large ones span several). Pure, and
 * the same for the same files and sizes: an interrupted upload finds its blocks again.
 */

/** A piece of one file inside one block. */
export interface Piece {
  file: number;
  fileOffset: number;
  length: number;
}

export interface PlannedBlock {
  pieces: Piece[];
  size: number;
}

/** Where a file's bytes are: consecutive ranges of blocks. */
export interface FileRange {
  block: number;
  offset: number;
  length: number;
}

export interface Layout {
  blocks: PlannedBlock[];
  /** For each file, its ranges in order (none for an empty file). */
  files: FileRange[][];
}

export function planBlocks(sizes: readonly number[], blockSize: number): Layout {
  const blocks: PlannedBlock[] = [];
  const files: FileRange[][] = sizes.map(() => []);
  let current: PlannedBlock = { pieces: [], size: 0 };
  sizes.forEach((size, file) => {
    let done = 0;
    while (done < size) {
      if (current.size === blockSize) {
        blocks.push(current);
        current = { pieces: [], size: 0 };
      }
      const length = Math.min(size - done, blockSize - current.size);
      files[file]!.push({ block: blocks.length, offset: current.size, length });
      current.pieces.push({ file, fileOffset: done, length });
      current.size += length;
      done += length;
    }
  });
  if (current.size > 0) blocks.push(current);
  return { blocks, files };
}
