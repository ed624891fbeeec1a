import type { Json } from './json';
import { createHash } from 'node:crypto';
import { request } from 'undici';
import type { ApiRequester } from './http';
import {
  newDir,
  dirAt,
  parseManifestTree,
  serializeManifestTree,
  type DirNode,
  type FileNode,
} from '@svc/blocks';

/** Largest block the block service takes (storage.md §4). */
const BLOCK_SIZE = 64 * 1024 * 1024;

/**
 * Collections with real bytes, through the public API and the block service only: what a
 * runner reads (image, mounts) and writes (logs, output) with the container's own token.
 */
export class CollectionStore {
  constructor(readonly client: ApiRequester) {}

  private auth(): Record<string, string> {
    return this.client.token ? { authorization: `Bearer ${this.client.token}` } : {};
  }

  /** A collection by uuid or PDH; its manifest comes back signed for this token. */
  async get(id: string): Promise<Json> {
    const res = await this.client.request('GET', `/svc/v1/collections/${encodeURIComponent(id)}`);
    if (res.status !== 200) throw new Error(`collection ${id}: ${res.status} ${res.text.trim()}`);
    return res.body as Json;
  }

  /** The file tree of a collection (signed locators). */
  async tree(id: string): Promise<DirNode> {
    return parseManifestTree((await this.get(id))['manifest_text'] ?? '');
  }

  async readBlock(locator: string): Promise<Buffer> {
    const res = await request(`${this.client.baseUrl}/${locator}`, { headers: this.auth() });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) {
      throw new Error(
        `block ${locator.split('+')[0]}: ${res.statusCode} ${body.toString().trim()}`,
      );
    }
    return body;
  }

  /** The bytes of one file node. */
  async readFile(node: FileNode): Promise<Buffer> {
    const cache = new Map<string, Buffer>();
    const parts: Buffer[] = [];
    for (const s of node.segments) {
      let block = cache.get(s.locator);
      if (!block) {
        block = await this.readBlock(s.locator);
        cache.set(s.locator, block);
      }
      parts.push(block.subarray(s.offset, s.offset + s.length));
    }
    return Buffer.concat(parts);
  }

  /** Stores bytes as blocks; answers the file node (signed locators). */
  async writeFile(data: Buffer): Promise<FileNode> {
    const segments: FileNode['segments'] = [];
    for (let at = 0; at < data.length; at += BLOCK_SIZE) {
      const chunk = data.subarray(at, at + BLOCK_SIZE);
      const md5 = createHash('md5').update(chunk).digest('hex');
      const res = await request(`${this.client.baseUrl}/${md5}+${chunk.length}`, {
        method: 'PUT',
        headers: { ...this.auth(), 'content-type': 'application/octet-stream' },
        body: chunk,
      });
      const text = (await res.body.text()).trim();
      if (res.statusCode !== 200) throw new Error(`storing a block: ${res.statusCode} ${text}`);
      segments.push({ locator: text, offset: 0, length: chunk.length });
    }
    return { kind: 'file', segments, size: data.length };
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

  /** Creates a collection; answers its record. */
  async create(attrs: Record<string, unknown>): Promise<Json> {
    const res = await this.client.request('POST', '/svc/v1/collections', {
      json: { collection: attrs },
    });
    if (res.status !== 200) throw new Error(`saving a collection: ${res.status} ${res.text}`);
    return res.body as Json;
  }

  async update(uuid: string, attrs: Record<string, unknown>): Promise<Json> {
    const res = await this.client.request('PUT', `/svc/v1/collections/${uuid}`, {
      json: { collection: attrs },
    });
    if (res.status !== 200) throw new Error(`saving a collection: ${res.status} ${res.text}`);
    return res.body as Json;
  }
}

export { newDir, dirAt, serializeManifestTree, type DirNode, type FileNode };
