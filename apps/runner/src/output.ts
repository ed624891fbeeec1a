import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join, posix } from 'node:path';
import { cloneNode, newDir, serializeManifestTree, type DirNode, type TreeNode } from '@svc/blocks';
import { ContainerError, within, type HostMount } from './mounts';
import type { CollectionStore } from './store';

const MAX_LINKS = 40;

/**
 * Saves the output directory by containers.md §3's output rules: files and directories as
 * they are; read-only collection mounts below it spliced in from their source; excluded
 * mounts left out; symlinks followed only into the output or a collection mount, anything
 * else makes the output invalid (ContainerError naming the symlink).
 */
export class OutputSaver {
  constructor(
    private readonly store: CollectionStore,
    private readonly outputPath: string,
    private readonly outputDir: string,
    private readonly mounts: HostMount[],
  ) {}

  async manifest(): Promise<string> {
    const root = newDir();
    await this.dir(this.outputPath, root, 0);
    return serializeManifestTree(root);
  }

  /** The mount (other than the output itself) whose target is or holds `p`, deepest first. */
  private mountAt(p: string): HostMount | undefined {
    return [...this.mounts]
      .filter((m) => m.target !== this.outputPath)
      .sort((a, b) => b.target.length - a.target.length)
      .find((m) => within(p, m.target));
  }

  private hostOf(p: string): string {
    return join(this.outputDir, posix.relative(this.outputPath, p));
  }

  /** A collection mount's node at container path `p`, or undefined. */
  private collectionNode(p: string): TreeNode | undefined {
    const m = this.mountAt(p);
    if (!m || m.kind !== 'collection' || !m.node) return undefined;
    let node: TreeNode | undefined = m.node;
    for (const part of posix.relative(m.target, p).split('/').filter(Boolean)) {
      node = node?.kind === 'dir' ? node.children.get(part) : undefined;
    }
    return node;
  }

  private async dir(containerDir: string, into: DirNode, depth: number): Promise<void> {
    if (depth > MAX_LINKS)
      throw new ContainerError(`output directory ${containerDir} is nested too deep`);
    for (const name of readdirSync(this.hostOf(containerDir))) {
      const p = posix.join(containerDir, name);
      const mount = this.mountAt(p);
      if (mount && mount.target === p) {
        if (mount.excludeFromOutput) continue;
        if (mount.kind === 'collection' && mount.node) {
          into.children.set(name, cloneNode(mount.node));
          continue;
        }
        if (!mount.writable) continue;
      }
      const node = await this.entry(p, depth);
      if (node) into.children.set(name, node);
    }
  }

  /** One path of the output directory as a tree node (symlinks resolved by the rules). */
  private async entry(p: string, depth: number): Promise<TreeNode | null> {
    const resolved = this.resolve(p);
    if (resolved.kind === 'collection') return cloneNode(resolved.node);
    const st = lstatSync(this.hostOf(resolved.path));
    if (st.isDirectory()) {
      const dir = newDir();
      await this.dir(resolved.path, dir, depth + 1);
      return dir;
    }
    if (st.isFile()) return this.store.storeFile(this.hostOf(resolved.path), st.size);
    return null; // sockets, fifos, devices: not saved
  }

  /** Follows symlinks from `p` until a real path of the output or a collection mount. */
  private resolve(
    p: string,
  ): { kind: 'output'; path: string } | { kind: 'collection'; node: TreeNode } {
    let at = p;
    for (let i = 0; i <= MAX_LINKS; i++) {
      if (within(at, this.outputPath) && !this.isMountedCollection(at)) {
        // resolve symlinks in the parent directories too
        const parts = posix.relative(this.outputPath, at).split('/').filter(Boolean);
        let cur = this.outputPath;
        let redirected: string | null = null;
        for (let k = 0; k < parts.length; k++) {
          cur = posix.join(cur, parts[k]!);
          let st;
          try {
            st = lstatSync(this.hostOf(cur));
          } catch {
            throw new ContainerError(`output symlink ${p} points to ${at}, which does not exist`);
          }
          if (st.isSymbolicLink()) {
            const link = readlinkSync(this.hostOf(cur));
            const target = posix.isAbsolute(link) ? link : posix.join(posix.dirname(cur), link);
            redirected = posix.join(posix.normalize(target), ...parts.slice(k + 1));
            break;
          }
        }
        if (redirected === null) return { kind: 'output', path: at };
        at = redirected;
        continue;
      }
      const node = this.collectionNode(at);
      if (node) return { kind: 'collection', node };
      throw new ContainerError(
        `output symlink ${p} points to ${at}, outside the output directory and collection mounts`,
      );
    }
    throw new ContainerError(`output symlink ${p}: too many levels of symbolic links`);
  }

  private isMountedCollection(p: string): boolean {
    const m = this.mountAt(p);
    return m !== undefined && m.kind === 'collection' && m.node !== undefined;
  }
}
