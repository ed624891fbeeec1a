import { EMPTY_BLOCK_LOCATOR, LOCATOR_RE } from './locator';

/**
 * A manifest as a tree of directories and files (other-resources.md §1), for file access by
 * path: a file is a list of byte ranges of blocks; a directory maps names to nodes. Parsing
 * and writing back are pure.
 */
export interface Segment {
  /** The locator as written in the manifest (hints kept). */
  locator: string;
  offset: number;
  length: number;
}
export interface FileNode {
  kind: 'file';
  segments: Segment[];
  size: number;
}
export interface DirNode {
  kind: 'dir';
  children: Map<string, TreeNode>;
}
export type TreeNode = FileNode | DirNode;

export const newDir = (): DirNode => ({ kind: 'dir', children: new Map() });

/** `\040` → space and any other `\ooo` octal escape. */
export const unescapeName = (s: string): string =>
  s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));

/** What escapeName rewrites: all of it is single UTF-16 units, so a regular expression suffices. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it matches
const NEEDS_ESCAPE = /[\\\x00-\x20\x7f]/g;

/**
 * Space, backslash and control characters (0x01–0x1F, 0x7F) as `\ooo` (most names have none:
 * returned as they are). NUL never gets here: names with it are refused.
 */
export const escapeName = (s: string): string =>
  s.replace(NEEDS_ESCAPE, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);

const sizeOf = (locator: string): number => Number(locator.split('+')[1]);

/** The directory at `path` (segments), created with its parents when `create`; null if absent. */
export function dirAt(root: DirNode, path: readonly string[], create = false): DirNode | null {
  let dir = root;
  for (const name of path) {
    let next = dir.children.get(name);
    if (next === undefined && create) {
      next = newDir();
      dir.children.set(name, next);
    }
    if (next === undefined || next.kind !== 'dir') return null;
    dir = next;
  }
  return dir;
}

export function nodeAt(root: DirNode, path: readonly string[]): TreeNode | null {
  if (path.length === 0) return root;
  const parent = dirAt(root, path.slice(0, -1));
  return parent?.children.get(path[path.length - 1]!) ?? null;
}

function fileSegments(
  blocks: readonly string[],
  starts: readonly number[],
  pos: number,
  size: number,
): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < blocks.length && size > 0; i++) {
    const start = starts[i]!;
    const end = start + sizeOf(blocks[i]!);
    if (end <= pos || start >= pos + size) continue;
    const from = Math.max(pos, start);
    const to = Math.min(pos + size, end);
    out.push({ locator: blocks[i]!, offset: from - start, length: to - from });
  }
  return out;
}

function addLine(root: DirNode, line: string): void {
  const tokens = line.split(' ');
  const stream = tokens[0] === '.' ? [] : tokens[0]!.slice(2).split('/').map(unescapeName);
  const blocks: string[] = [];
  const starts: number[] = [];
  let total = 0;
  let i = 1;
  for (; i < tokens.length && LOCATOR_RE.test(tokens[i]!); i++) {
    blocks.push(tokens[i]!);
    starts.push(total);
    total += sizeOf(tokens[i]!);
  }
  for (const token of tokens.slice(i)) {
    const m = /^([0-9]+):([0-9]+):(.+)$/.exec(token);
    if (!m) continue;
    const parts = m[3]!.split('/').map(unescapeName);
    const name = parts.pop()!;
    const dir = dirAt(root, [...stream, ...parts], true);
    if (!dir || name === '.') continue;
    const segments = fileSegments(blocks, starts, Number(m[1]), Number(m[2]));
    const existing = dir.children.get(name);
    if (existing?.kind === 'file') {
      existing.segments.push(...segments);
      existing.size += Number(m[2]);
    } else if (existing === undefined) {
      dir.children.set(name, { kind: 'file', segments, size: Number(m[2]) });
    }
  }
}

/** The tree of a (valid) manifest. */
export function parseManifestTree(manifest: string): DirNode {
  const root = newDir();
  for (const line of manifest.split('\n')) if (line !== '') addLine(root, line);
  return root;
}

/** One stream line for the files directly in `dir`, or an empty-directory marker. */
function streamLine(name: string, dir: DirNode): string | null {
  const files = [...dir.children]
    .filter(([, n]) => n.kind === 'file')
    .sort(([a], [b]) => (a < b ? -1 : 1));
  if (files.length === 0) {
    return dir.children.size === 0 && name !== '.' ? `${name} ${EMPTY_BLOCK_LOCATOR} 0:0:.` : null;
  }
  const blocks: string[] = [];
  const at = new Map<string, number>();
  let total = 0;
  const tokens: string[] = [];
  for (const [fileName, node] of files) {
    const f = node as FileNode;
    const ranges: Array<[number, number]> = [];
    for (const s of f.segments) {
      let start = at.get(s.locator);
      if (start === undefined) {
        start = total;
        at.set(s.locator, start);
        blocks.push(s.locator);
        total += sizeOf(s.locator);
      }
      const last = ranges[ranges.length - 1];
      if (last && last[0] + last[1] === start + s.offset) last[1] += s.length;
      else ranges.push([start + s.offset, s.length]);
    }
    if (ranges.length === 0) ranges.push([0, 0]);
    for (const [pos, len] of ranges) tokens.push(`${pos}:${len}:${escapeName(fileName)}`);
  }
  if (blocks.length === 0) blocks.push(EMPTY_BLOCK_LOCATOR);
  return [name, ...blocks, ...tokens].join(' ');
}

/** The manifest of a tree: one stream per directory that holds files, empty ones marked. */
export function serializeManifestTree(root: DirNode): string {
  const lines: string[] = [];
  const walk = (dir: DirNode, name: string) => {
    const line = streamLine(name, dir);
    if (line !== null) lines.push(line);
    const subdirs = [...dir.children]
      .filter(([, n]) => n.kind === 'dir')
      .sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [sub, node] of subdirs) walk(node as DirNode, `${name}/${escapeName(sub)}`);
  };
  walk(root, '.');
  return lines.map((l) => `${l}\n`).join('');
}

/** A deep copy of a node (COPY). */
export function cloneNode(node: TreeNode): TreeNode {
  if (node.kind === 'file') return { ...node, segments: node.segments.map((s) => ({ ...s })) };
  return { kind: 'dir', children: new Map([...node.children].map(([k, v]) => [k, cloneNode(v)])) };
}

/** Total bytes of the files under a node. */
export const treeSize = (node: TreeNode): number =>
  node.kind === 'file'
    ? node.size
    : [...node.children.values()].reduce((n, c) => n + treeSize(c), 0);

/** Every file under a node with its path below `dest` (`dest` itself for a file), and every directory. */
export function treeEntries(
  node: TreeNode,
  dest: string,
): { files: [string, FileNode][]; dirs: string[] } {
  const out = { files: [] as [string, FileNode][], dirs: [] as string[] };
  const walk = (n: TreeNode, at: string): void => {
    if (n.kind === 'file') {
      out.files.push([at, n]);
      return;
    }
    out.dirs.push(at);
    for (const [name, child] of n.children) walk(child, `${at}/${name}`);
  };
  walk(node, dest.replace(/\/+$/, '') || '/');
  return out;
}
