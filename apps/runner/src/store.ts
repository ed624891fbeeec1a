import type { Json } from './json';
import { mkdir } from 'node:fs/promises';
import { MAX_BLOCK_SIZE, storeFile, writeFiles, type SvcClient } from '@svc/client';
import {
  newDir,
  parseManifestTree,
  treeEntries,
  type DirNode,
  type FileNode,
  type TreeNode,
} from '@svc/blocks';

/**
 * Collections with real bytes, through the public API and the block service only (the
 * client's one retry policy: idempotent calls and block transfers are tried again on
 * 502/503, a collection's POST never): what a runner reads (image, mounts) and writes (logs,
 * output) with the container's own token. Files are read and written as streams.
 */
export class CollectionStore {
  constructor(readonly client: SvcClient) {}

  /** A collection by uuid or PDH; its manifest comes back signed for this token. */
  async get(id: string): Promise<Json> {
    try {
      return (await this.client.api.collections.get({ uuid: id })) as Json;
    } catch (err) {
      throw new Error(`collection ${id}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The file tree of a collection (signed locators). */
  async tree(id: string): Promise<DirNode> {
    return parseManifestTree((await this.get(id))['manifest_text'] ?? '');
  }

  /** The bytes of one (small) file node, every block checked. */
  async readFile(node: FileNode): Promise<Buffer> {
    const blocks = new Map<string, Buffer>();
    const parts: Buffer[] = [];
    for (const s of node.segments) {
      let block = blocks.get(s.locator);
      if (!block) blocks.set(s.locator, (block = await this.client.blocks.get(s.locator)));
      parts.push(block.subarray(s.offset, s.offset + s.length));
    }
    return Buffer.concat(parts);
  }

  /**
   * Writes a node's files (and empty directories) at `host`: each block read once as a
   * stream, checked against its size and MD5 (other copies are tried first; a block that
   * stays bad throws a CorruptBlockError), so memory does not grow with file size.
   */
  async materialize(node: TreeNode, host: string): Promise<void> {
    const { files, dirs } = treeEntries(node, host);
    for (const d of dirs) await mkdir(d, { recursive: true });
    await writeFiles(this.client.blocks, files);
  }

  /** Stores bytes as blocks; answers the file node (signed locators). */
  async writeFile(data: Buffer): Promise<FileNode> {
    const segments: FileNode['segments'] = [];
    for (let at = 0; at < data.length; at += MAX_BLOCK_SIZE) {
      const chunk = data.subarray(at, at + MAX_BLOCK_SIZE);
      const { locator } = await this.client.blocks.put(chunk);
      segments.push({ locator, offset: 0, length: chunk.length });
    }
    return { kind: 'file', segments, size: data.length };
  }

  /** Stores a file of `size` bytes from disk as blocks, each read as a stream. */
  async storeFile(path: string, size: number): Promise<FileNode> {
    return { kind: 'file', segments: await storeFile(this.client.blocks, path, size), size };
  }

  /**
   * Stores several small files as one run of blocks (one request for a few log files rather
   * than one each); answers a directory of them, each file a range of those blocks.
   */
  async writeFiles(files: [string, Buffer][]): Promise<DirNode> {
    const all = await this.writeFile(Buffer.concat(files.map(([, data]) => data)));
    const dir = newDir();
    let at = 0;
    for (const [name, data] of files) {
      const segments: FileNode['segments'] = [];
      let blockStart = 0;
      for (const s of all.segments) {
        const from = Math.max(at, blockStart);
        const to = Math.min(at + data.length, blockStart + s.length);
        if (from < to) {
          segments.push({ locator: s.locator, offset: from - blockStart, length: to - from });
        }
        blockStart += s.length;
      }
      dir.children.set(name, { kind: 'file', segments, size: data.length });
      at += data.length;
    }
    return dir;
  }

  /** Creates a collection (never retried: a repeated POST would make a second one). */
  async create(attrs: Record<string, unknown>): Promise<Json> {
    return (await this.client.api.collections.create({ attributes: attrs as never })) as Json;
  }

  async update(uuid: string, attrs: Record<string, unknown>): Promise<Json> {
    return (await this.client.api.collections.update({ uuid, attributes: attrs as never })) as Json;
  }
}

export { newDir, serializeManifestTree, type DirNode, type FileNode } from '@svc/blocks';
