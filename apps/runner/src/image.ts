import type { Json } from './json';
import { createHash } from 'node:crypto';
import {
  chmodSync,
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
import { gunzipSync } from 'node:zlib';
import { readTar, normalizeTarPath, type TarEntry } from './tar';

/** What the runner uses of an image's configuration (execution.md §3.1). */
export interface ImageConfig {
  Env: string[];
  User: string;
  WorkingDir: string;
}

export interface LoadedImage {
  /** The unpacked root (bubblewrap); empty when an engine keeps the image. */
  root: string;
  config: ImageConfig;
  /** The engine's name of the image (podman, docker). */
  ref?: string;
}

const maybeGunzip = (b: Buffer): Buffer => (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b);

/** Layers (in order) and configuration of a Docker or OCI image archive. */
export function parseImageArchive(archive: Buffer): { layers: Buffer[]; config: ImageConfig } {
  const files = new Map<string, TarEntry>();
  for (const e of readTar(archive)) if (e.type === 'file') files.set(e.path, e);
  const json = (path: string): Json => {
    const f = files.get(normalizeTarPath(path));
    if (!f) throw new Error(`${path} missing from the archive`);
    return JSON.parse(f.data.toString('utf8'));
  };
  const blob = (digest: string) => `blobs/${digest.replace(':', '/')}`;
  let layerPaths: string[];
  let configJson: Json;
  if (files.has('manifest.json')) {
    const [m] = json('manifest.json') as Array<{ Config: string; Layers: string[] }>;
    if (!m) throw new Error('manifest.json lists no image');
    layerPaths = m.Layers;
    configJson = json(m.Config);
  } else if (files.has('index.json')) {
    let m = json('index.json');
    // an index may point at another index (nested) before the image manifest
    while (m.manifests) {
      const first = m.manifests[0];
      if (!first) throw new Error('index.json lists no image');
      m = json(blob(first.digest));
    }
    layerPaths = (m.layers as Array<{ digest: string }>).map((l) => blob(l.digest));
    configJson = json(blob(m.config.digest));
  } else {
    throw new Error('not a docker save or OCI archive (no manifest.json or index.json)');
  }
  const layers = layerPaths.map((p) => {
    const f = files.get(normalizeTarPath(p));
    if (!f) throw new Error(`layer ${p} missing from the archive`);
    return maybeGunzip(f.data);
  });
  const c = configJson?.config ?? configJson?.Config ?? {};
  return {
    layers,
    config: {
      Env: Array.isArray(c.Env) ? c.Env : [],
      User: typeof c.User === 'string' ? c.User : '',
      WorkingDir: typeof c.WorkingDir === 'string' ? c.WorkingDir : '',
    },
  };
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

/**
 * Applies one layer to `root`: whiteouts (`.wh.<name>` removes, `.wh..wh..opq` empties the
 * directory), then entries. Entries whose path or link target would leave the root are
 * refused (answered, not applied).
 */
export function applyLayer(root: string, layer: Buffer): string[] {
  const refused: string[] = [];
  for (const e of readTar(layer)) {
    if (e.path === '' || e.path === '.') continue;
    if (!inside(e.path) || !parentsAreReal(root, e.path)) {
      refused.push(e.path);
      continue;
    }
    const base = posix.basename(e.path);
    const parent = posix.dirname(e.path);
    const target = join(root, e.path);
    if (base === '.wh..wh..opq') {
      const dir = join(root, parent);
      if (existsSync(dir)) for (const name of readdirSync(dir)) remove(join(dir, name));
      continue;
    }
    if (base.startsWith('.wh.')) {
      remove(join(root, parent, base.slice(4)));
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    if (e.type === 'dir') {
      if (!existsSync(target) || !lstatSync(target).isDirectory()) {
        remove(target);
        mkdirSync(target, { recursive: true });
      }
      chmodSync(target, e.mode | 0o700);
      continue;
    }
    remove(target);
    if (e.type === 'file') {
      writeFileSync(target, e.data, { mode: e.mode });
      chmodSync(target, e.mode);
    } else if (e.type === 'symlink') {
      const resolved = posix.isAbsolute(e.linkname)
        ? e.linkname.slice(1)
        : posix.join(parent, e.linkname);
      if (!inside(resolved)) {
        refused.push(e.path);
        continue;
      }
      symlinkSync(e.linkname, target);
    } else if (e.type === 'hardlink') {
      const from = normalizeTarPath(e.linkname);
      if (!inside(from) || !parentsAreReal(root, from)) {
        refused.push(e.path);
        continue;
      }
      linkSync(join(root, from), target);
    }
  }
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

  /** Unpacks an archive into the cache; answers the image and the refused entries. */
  store(pdh: string, archive: Buffer): LoadedImage & { refused: string[] } {
    const { layers, config } = parseImageArchive(archive);
    const dir = this.dirOf(pdh);
    const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    const root = join(tmp, 'root');
    mkdirSync(root, { recursive: true });
    const refused: string[] = [];
    try {
      for (const layer of layers) refused.push(...applyLayer(root, layer));
      writeFileSync(join(tmp, 'config.json'), JSON.stringify(config));
      if (existsSync(dir)) remove(tmp);
      else renameSync(tmp, dir);
    } catch (err) {
      remove(tmp);
      throw err;
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
