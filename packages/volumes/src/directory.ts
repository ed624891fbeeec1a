import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { VolumeUnavailableError } from './errors';
import { isMissing, volumeError } from './fs-errors';
import { syncedFileSink } from './file-sink';
import { BlockVerifier } from './verify';
import type { ByteRange, Clock, PutOptions, StoredBlock, TrashedBlock, Volume } from './volume';

const PREFIX_DIR = /^[0-9a-f]{3}$/;
const BLOCK_FILE = /^[0-9a-f]{32}$/;
const STAT_BATCH = 64;
/** Unfinished writes older than this are left-overs of a crash. */
const STALE_TMP_MS = 3_600_000;

export interface DirectoryOptions {
  readOnly: boolean;
  replication: number;
  clock?: Clock;
}

/** fsync of a directory, so a rename in it survives a crash. */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Blocks as files: `<root>/<first 3 hex>/<md5>`, trash in `<root>/trash/<first 3 hex>/<md5>`
 * (modification time = when trashed). A write goes to `<root>/tmp/`, is fsynced, then renamed
 * into place: a crash leaves at most a temporary file, never a partial block under its name.
 */
export class DirectoryVolume implements Volume {
  readonly driver = 'Directory';
  readonly readOnly: boolean;
  readonly replication: number;
  private readonly clock: Clock;
  /** Trash directories known to exist (garbage collection trashes thousands at a time). */
  private readonly trashDirs = new Set<string>();

  constructor(
    readonly id: string,
    private readonly root: string,
    opts: DirectoryOptions,
  ) {
    this.readOnly = opts.readOnly;
    this.replication = opts.replication;
    this.clock = opts.clock ?? Date.now;
  }

  private live = (hash: string) => join(this.root, hash.slice(0, 3), hash);
  private trashed = (hash: string) => join(this.root, 'trash', hash.slice(0, 3), hash);
  private nowSeconds = () => this.clock() / 1000;

  async check(): Promise<void> {
    try {
      if (!this.readOnly) {
        await mkdir(join(this.root, 'tmp'), { recursive: true });
        await mkdir(join(this.root, 'trash'), { recursive: true });
        await this.removeStaleTemporaries();
      }
      await access(this.root, this.readOnly ? constants.R_OK : constants.R_OK | constants.W_OK);
    } catch (err) {
      throw new VolumeUnavailableError(this.id, err);
    }
  }

  private async removeStaleTemporaries(): Promise<void> {
    const dir = join(this.root, 'tmp');
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      const st = await stat(path).catch(() => null);
      if (st && Date.now() - st.mtimeMs > STALE_TMP_MS) await unlink(path).catch(() => undefined);
    }
  }

  async put(hash: string, body: Readable, opts: PutOptions): Promise<number> {
    if (this.readOnly) throw new VolumeUnavailableError(this.id, new Error('read-only'));
    const tmp = join(this.root, 'tmp', `${hash}-${randomBytes(8).toString('hex')}`);
    const verifier = new BlockVerifier(hash, opts.expectedLength);
    try {
      const fh = await open(tmp, 'wx', 0o644);
      try {
        await pipeline(body, verifier, syncedFileSink(fh));
      } finally {
        await fh.close();
      }
      await utimes(tmp, this.nowSeconds(), this.nowSeconds());
      const dir = join(this.root, hash.slice(0, 3));
      await mkdir(dir, { recursive: true });
      await rename(tmp, this.live(hash));
      await syncDir(dir);
      return verifier.bytes;
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw volumeError(this.id, err);
    }
  }

  async get(hash: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const fh = await open(this.live(hash), 'r');
      // 1 MiB reads: a 64 MiB block in 64 system calls, not a thousand.
      const chunking = { highWaterMark: 1 << 20 };
      return fh.createReadStream(
        range ? { ...chunking, start: range.start, end: range.end } : chunking,
      );
    } catch (err) {
      if (isMissing(err)) return null;
      throw volumeError(this.id, err);
    }
  }

  async stat(hash: string): Promise<StoredBlock | null> {
    try {
      const st = await stat(this.live(hash), { bigint: true });
      return { hash, size: Number(st.size), mtimeNs: st.mtimeNs };
    } catch (err) {
      if (isMissing(err)) return null;
      throw volumeError(this.id, err);
    }
  }

  async touch(hash: string): Promise<boolean> {
    if (this.readOnly) return (await this.stat(hash)) !== null;
    try {
      await utimes(this.live(hash), this.nowSeconds(), this.nowSeconds());
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw volumeError(this.id, err);
    }
  }

  async trash(hash: string, ifMtimeNs: bigint): Promise<boolean> {
    if (this.readOnly) return false;
    const current = await this.stat(hash);
    if (!current || current.mtimeNs !== ifMtimeNs) return false;
    try {
      const dir = join(this.root, 'trash', hash.slice(0, 3));
      if (!this.trashDirs.has(dir)) {
        await mkdir(dir, { recursive: true });
        this.trashDirs.add(dir);
      }
      // The trashed copy's time is when it was trashed (set first: a failed rename only
      // leaves the live copy younger, never an old trashed one).
      await utimes(this.live(hash), this.nowSeconds(), this.nowSeconds());
      await rename(this.live(hash), this.trashed(hash));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw volumeError(this.id, err);
    }
  }

  async untrash(hash: string): Promise<boolean> {
    if (this.readOnly) return false;
    try {
      await utimes(this.trashed(hash), this.nowSeconds(), this.nowSeconds());
      await mkdir(join(this.root, hash.slice(0, 3)), { recursive: true });
      await rename(this.trashed(hash), this.live(hash));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw volumeError(this.id, err);
    }
  }

  async deleteTrashed(hash: string): Promise<void> {
    await unlink(this.trashed(hash)).catch((err) => {
      if (!isMissing(err)) throw volumeError(this.id, err);
    });
  }

  async *index(prefix = ''): AsyncIterable<StoredBlock> {
    for (const dir of await this.listDirs(this.root)) {
      if (!dir.startsWith(prefix.slice(0, 3)) && !prefix.startsWith(dir)) continue;
      const names = (await readdir(join(this.root, dir)).catch(() => [])).filter(
        (name) => BLOCK_FILE.test(name) && name.startsWith(prefix),
      );
      // Several stats at once: the file system answers them in parallel.
      for (let i = 0; i < names.length; i += STAT_BATCH) {
        const stats = await Promise.all(names.slice(i, i + STAT_BATCH).map((n) => this.stat(n)));
        for (const st of stats) if (st) yield st;
      }
    }
  }

  async *trashIndex(): AsyncIterable<TrashedBlock> {
    const base = join(this.root, 'trash');
    for (const dir of await this.listDirs(base)) {
      for (const name of await readdir(join(base, dir)).catch(() => [])) {
        if (!BLOCK_FILE.test(name)) continue;
        const st = await stat(join(base, dir, name)).catch(() => null);
        if (st) yield { hash: name, trashedAtMs: st.mtimeMs };
      }
    }
  }

  private async listDirs(base: string): Promise<string[]> {
    try {
      return (await readdir(base)).filter((n) => PREFIX_DIR.test(n)).sort();
    } catch (err) {
      if (isMissing(err)) return [];
      throw volumeError(this.id, err);
    }
  }

  async close(): Promise<void> {}
}
