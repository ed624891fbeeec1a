import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { usageError } from '../exit-codes';

/** One file to upload: where it is, where it goes in the collection, what it was. */
export interface LocalFile {
  source: string;
  /** Its path in the collection, as segments. */
  target: string[];
  size: number;
  mtimeMs: number;
}

export interface LocalTree {
  files: LocalFile[];
  /** Directories with nothing in them (kept in the manifest). */
  emptyDirs: string[][];
}

function walkDir(dir: string, target: string[], out: LocalTree): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  if (entries.length === 0 && target.length > 0) out.emptyDirs.push(target);
  for (const e of entries) {
    const path = join(dir, e.name);
    const st = statSync(path);
    if (st.isDirectory()) walkDir(path, [...target, e.name], out);
    else if (st.isFile())
      out.files.push({
        source: path,
        target: [...target, e.name],
        size: st.size,
        mtimeMs: st.mtimeMs,
      });
  }
}

/**
 * The files of `svc put`'s arguments, in a fixed order: one directory gives its contents at the
 * collection's root; otherwise each file and directory goes in under its own name.
 */
export function localTree(paths: readonly string[]): LocalTree {
  const out: LocalTree = { files: [], emptyDirs: [] };
  const stats = paths.map((p) => {
    try {
      return { path: resolve(p), st: statSync(p) };
    } catch {
      throw usageError(`no such file or directory: ${p}`);
    }
  });
  if (stats.length === 1 && stats[0]!.st.isDirectory()) {
    walkDir(stats[0]!.path, [], out);
    return out;
  }
  for (const { path, st } of stats) {
    const name = basename(path);
    if (st.isDirectory()) walkDir(path, [name], out);
    else out.files.push({ source: path, target: [name], size: st.size, mtimeMs: st.mtimeMs });
  }
  const seen = new Set<string>();
  for (const f of out.files) {
    const key = f.target.join('/');
    if (seen.has(key)) throw usageError(`two files would be named ${key} in the collection`);
    seen.add(key);
  }
  return out;
}
