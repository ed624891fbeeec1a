import { createHash } from 'node:crypto';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readImageArchive, type ImageConfig } from './image-archive';
import {
  eachTarEntry,
  normalizeTarPath,
  tarFileStream,
  type TarEntryStream,
  type TarHeader,
} from './tar-read';

export type { ImageConfig } from './image-archive';

export interface LoadedImage {
  /** The unpacked root (bubblewrap); empty when an engine keeps the image. */
  root: string;
  config: ImageConfig;
  /** The engine's name of the image (podman, docker). */
  ref?: string;
}

/** True when `p` (relative, normalized) stays inside the root. */
const inside = (p: string): boolean => {
  const n = posix.normalize(p);
  return n !== '..' && !n.startsWith('../') && !posix.isAbsolute(n);
};

/** True when no existing parent of `rel` under `root` is a symlink (writes never follow one). */
function parentsAreReal(root: string, rel: string): boolean {
  let at = root;
  for (const part of rel.split('/').slice(0, -1)) {
    at = join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) return false;
    } catch {
      return true;
    }
  }
  return true;
}

const remove = (p: string) => rmSync(p, { recursive: true, force: true });

/** Whether an entry may be written: its path stays in the root and no parent is a symlink. */
const writable = (root: string, path: string): boolean =>
  inside(path) && parentsAreReal(root, path);

/** Applies a whiteout entry (`.wh.<name>` removes, `.wh..wh..opq` empties the directory). */
function whiteout(root: string, path: string): boolean {
  const base = posix.basename(path);
  const parent = posix.dirname(path);
  if (base === '.wh..wh..opq') {
    const dir = join(root, parent);
    if (existsSync(dir)) for (const name of readdirSync(dir)) remove(join(dir, name));
    return true;
  }
  if (!base.startsWith('.wh.')) return false;
  remove(join(root, parent, base.slice(4)));
  return true;
}

/** Writes one entry below `root`; answers false when it was refused (it would leave the root). */
async function applyEntry(root: string, e: TarHeader, body: TarEntryStream): Promise<boolean> {
  const target = join(root, e.path);
  mkdirSync(dirname(target), { recursive: true });
  if (e.type === 'dir') {
    if (!existsSync(target) || !lstatSync(target).isDirectory()) {
      remove(target);
      mkdirSync(target, { recursive: true });
    }
    chmodSync(target, e.mode | 0o700);
    return true;
  }
  if (e.type === 'symlink') {
    const resolved = posix.isAbsolute(e.linkname)
      ? e.linkname.slice(1)
      : posix.join(posix.dirname(e.path), e.linkname);
    if (!inside(resolved)) return false;
    remove(target);
    symlinkSync(e.linkname, target);
  } else if (e.type === 'hardlink') {
    const from = normalizeTarPath(e.linkname);
    if (!writable(root, from)) return false;
    remove(target);
    linkSync(join(root, from), target);
  } else if (e.type === 'file') {
    remove(target);
    await pipeline(body, createWriteStream(target, { mode: e.mode }));
    chmodSync(target, e.mode);
  }
  return true;
}

/**
 * Applies one layer (a tar stream) to `root`: whiteouts, then entries, each file streamed to
 * disk. Entries whose path or link target would leave the root are refused (answered, not
 * applied).
 */
export async function applyLayer(root: string, layer: Readable): Promise<string[]> {
  const refused: string[] = [];
  await eachTarEntry(layer, async (e, body) => {
    if (e.path === '' || e.path === '.') return;
    if (!writable(root, e.path)) refused.push(e.path);
    else if (!whiteout(root, e.path) && !(await applyEntry(root, e, body))) refused.push(e.path);
  });
  return refused;
}

/**
 * Image roots cached by PDH under `cacheDir`, built once (in a temporary directory renamed
 * into place, so a half-built root is never used) and evicted least recently used first.
 */
export class ImageCache {
  constructor(
    readonly cacheDir: string,
    readonly maxImages = 8,
  ) {
    mkdirSync(cacheDir, { recursive: true });
  }

  private dirOf(pdh: string): string {
    return join(this.cacheDir, createHash('sha256').update(pdh).digest('hex').slice(0, 32));
  }

  /** The cached image, or null; a hit refreshes its use time. */
  lookup(pdh: string): LoadedImage | null {
    const dir = this.dirOf(pdh);
    const configPath = join(dir, 'config.json');
    if (!existsSync(configPath)) return null;
    const now = new Date();
    utimesSync(dir, now, now);
    return {
      root: join(dir, 'root'),
      config: JSON.parse(readFileSync(configPath, 'utf8')),
    };
  }

  /**
   * Unpacks an archive file into the cache (its members taken apart in `scratch`, removed
   * after); answers the image and the refused entries.
   */
  async store(
    pdh: string,
    archive: string,
    scratch: string,
  ): Promise<LoadedImage & { refused: string[] }> {
    const dir = this.dirOf(pdh);
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    const root = join(tmp, 'root');
    mkdirSync(root, { recursive: true });
    mkdirSync(scratch, { recursive: true });
    const refused: string[] = [];
    let config: ImageConfig;
    try {
      const parts = await readImageArchive(archive, scratch);
      config = parts.config;
      for (const layer of parts.layers) {
        refused.push(...(await applyLayer(root, await tarFileStream(layer))));
      }
      writeFileSync(join(tmp, 'config.json'), JSON.stringify(config));
      if (existsSync(dir)) remove(tmp);
      else renameSync(tmp, dir);
    } catch (err) {
      remove(tmp);
      throw err;
    } finally {
      remove(scratch);
    }
    this.evict(dir);
    return { root: join(dir, 'root'), config, refused };
  }

  /** Keeps `current` and the most recently used others, up to maxImages in all. */
  private evict(current: string): void {
    const entries = readdirSync(this.cacheDir)
      // only image roots: a half-built one (.tmp-) is another runner's, and the engines'
      // use markers live in a folder of their own here
      .filter((n) => /^[0-9a-f]{32}$/.test(n) && join(this.cacheDir, n) !== current)
      .map((n) => ({
        path: join(this.cacheDir, n),
        used: statSync(join(this.cacheDir, n)).mtimeMs,
      }))
      .sort((a, b) => b.used - a.used);
    for (const e of entries.slice(this.maxImages - 1)) remove(e.path);
  }
}
