import type { Json } from './json';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { CorruptBlockError } from '@svc/client';
import type { DirNode, TreeNode } from '@svc/blocks';
import type { CollectionStore } from './store';

/** A failure that ends the container Cancelled with this message (execution.md §3). */
export class ContainerError extends Error {}

type Mount = Json;

/** One prepared mount: where it is on the host and how the sandbox sees it. */
export interface HostMount {
  target: string;
  host: string;
  writable: boolean;
  kind: string;
  /** For collection mounts: the selected node (a read-only one below the output is spliced in). */
  node?: TreeNode;
  excludeFromOutput: boolean;
}

export interface PreparedMounts {
  mounts: HostMount[];
  /** Host directory of `output_path`'s mount, or null. */
  outputDir: string | null;
  stdin: string | null;
  stdout: string | null;
  stderr: string | null;
}

/** `target` is equal to or below `dir`. */
export const within = (target: string, dir: string): boolean =>
  target === dir || target.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * Writes a collection node's files at `host`, streamed and checked block by block. A block no
 * copy of which reads right ends the container with the contract's error (execution.md §3.3).
 */
export async function materialize(
  store: CollectionStore,
  node: TreeNode,
  host: string,
): Promise<void> {
  try {
    await store.materialize(node, host);
  } catch (err) {
    if (err instanceof CorruptBlockError) throw new ContainerError(`block ${err.hash} is corrupt`);
    throw err;
  }
}

/** The node of a collection mount (by PDH, uuid or a new empty one) at its `path`. */
async function collectionNode(store: CollectionStore, target: string, m: Mount): Promise<TreeNode> {
  const id = m['portable_data_hash'] || m['uuid'];
  const tree: DirNode = id ? await store.tree(id) : { kind: 'dir', children: new Map() };
  const parts = String(m['path'] ?? '/')
    .split('/')
    .filter((p) => p !== '');
  let node: TreeNode | undefined = tree;
  for (const p of parts) node = node?.kind === 'dir' ? node.children.get(p) : undefined;
  if (!node) throw new ContainerError(`mounts [${target}]: path ${m['path']} not found in ${id}`);
  return node;
}

/**
 * Makes every mount exist on the host under `work`: collections materialized (a copy for
 * writable ones), tmp directories, json/text files; stdin/stdout/stderr resolved to host
 * files. `keep` and `git_tree` are not supported in v1.
 */
export async function prepareMounts(
  store: CollectionStore,
  work: string,
  mounts: Record<string, Mount>,
  secretMounts: Record<string, Mount>,
  outputPath: string,
): Promise<PreparedMounts> {
  const out: HostMount[] = [];
  const streams: Record<string, Mount> = {};
  const all = [
    ...Object.entries(mounts).map(([t, m]) => [t, m, false] as const),
    ...Object.entries(secretMounts).map(([t, m]) => [t, m, true] as const),
  ].sort(([a], [b]) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  let n = 0;
  for (const [target, m, secret] of all) {
    const kind = String(m['kind']);
    if (target === 'stdin' || target === 'stdout' || target === 'stderr') {
      streams[target] = m;
      continue;
    }
    const host = join(work, 'mounts', String(n++));
    const exclude = Boolean(m['exclude_from_output']) || secret;
    const belowOutput = within(target, outputPath) && target !== outputPath;
    if (kind === 'keep' || kind === 'git_tree') {
      throw new ContainerError(`mount kind ${kind} is not supported`);
    } else if (kind === 'tmp') {
      mkdirSync(host, { recursive: true });
      out.push({ target, host, writable: true, kind, excludeFromOutput: exclude });
    } else if (kind === 'json' || kind === 'text') {
      mkdirSync(dirname(host), { recursive: true });
      const content = kind === 'json' ? JSON.stringify(m['content']) : String(m['content'] ?? '');
      writeFileSync(host, content, { mode: 0o644 });
      out.push({ target, host, writable: false, kind, excludeFromOutput: exclude });
    } else if (kind === 'collection') {
      const node = await collectionNode(store, target, m);
      // the output mount and writable mounts are copies; below the output a writable one is
      // copied into the output directory at start (containers.md §3 rule 2)
      const writable = m['writable'] === true || target === outputPath;
      const parent = belowOutput && writable ? out.find((o) => o.target === outputPath) : undefined;
      if (parent) {
        await materialize(store, node, join(parent.host, posix.relative(outputPath, target)));
        continue;
      }
      await materialize(store, node, host);
      out.push({ target, host, writable, kind, node, excludeFromOutput: exclude });
    } else if (kind === 'file') {
      // only meaningful for stdin/stdout/stderr; as a path mount it is ignored
      continue;
    } else {
      throw new ContainerError(`mount kind ${kind} is not supported`);
    }
  }
  const outputDir = out.find((o) => o.target === outputPath)?.host ?? null;
  const hostPathOf = (p: string): string | null => {
    const owner = [...out]
      .sort((a, b) => b.target.length - a.target.length)
      .find((o) => within(p, o.target));
    return owner ? join(owner.host, posix.relative(owner.target, p)) : null;
  };
  const stream = (name: 'stdin' | 'stdout' | 'stderr'): string | null => {
    const m = streams[name];
    if (!m) return null;
    if (m['kind'] === 'file') {
      const host = hostPathOf(String(m['path']));
      if (!host)
        throw new ContainerError(`mounts [${name}][path]: must be inside another mount target`);
      return host;
    }
    // stdin from json/text/collection: a file of its own
    const host = join(work, 'mounts', `${name}-source`);
    mkdirSync(dirname(host), { recursive: true });
    if (m['kind'] === 'json') writeFileSync(host, JSON.stringify(m['content']));
    else if (m['kind'] === 'text') writeFileSync(host, String(m['content'] ?? ''));
    else return null;
    return host;
  };
  const result = {
    mounts: out,
    outputDir,
    stdin: stream('stdin'),
    stdout: stream('stdout'),
    stderr: stream('stderr'),
  };
  if (streams['stdin']?.['kind'] === 'collection') {
    const node = await collectionNode(store, 'stdin', streams['stdin']);
    const host = join(work, 'mounts', 'stdin-source');
    await materialize(store, node, host);
    result.stdin = host;
  }
  return result;
}
