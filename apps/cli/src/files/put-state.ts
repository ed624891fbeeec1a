import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LocalFile } from './walk';

/**
 * What an interrupted `svc put` had stored: a small file per upload (same host, files and
 * block size), keeping the signed locator of every block answered 200. Run again, the command
 * skips those blocks while their signatures are valid, and removes the file once it is done.
 */
export interface PutState {
  fingerprint: string;
  /** Block index → signed locator. */
  blocks: Record<string, string>;
}

/** Locators still usable for a while (an hour of margin to finish the upload). */
const MARGIN_S = 3600;
const stillValid = (locator: string): boolean => {
  const m = /\+A[0-9a-f]{40}@([0-9a-f]{8})/.exec(locator);
  return m === null || parseInt(m[1]!, 16) > Date.now() / 1000 + MARGIN_S;
};

export class PutStateFile {
  readonly path: string;
  private readonly fingerprint: string;
  private state: PutState;

  constructor(
    env: NodeJS.ProcessEnv,
    host: string,
    files: readonly LocalFile[],
    blockSize: number,
    extra: string,
  ) {
    const cache = env['XDG_CACHE_HOME'] || join(env['HOME'] || homedir(), '.cache');
    const fp = createHash('sha256');
    fp.update(JSON.stringify([host, blockSize, extra]));
    for (const f of files) fp.update(JSON.stringify([f.source, f.target, f.size, f.mtimeMs]));
    this.fingerprint = fp.digest('hex');
    this.path = join(cache, 'svc', 'put', `${this.fingerprint.slice(0, 32)}.json`);
    this.state = this.read();
  }

  private read(): PutState {
    try {
      const s = JSON.parse(readFileSync(this.path, 'utf8')) as PutState;
      if (s.fingerprint === this.fingerprint && typeof s.blocks === 'object') {
        s.blocks = Object.fromEntries(Object.entries(s.blocks).filter(([, v]) => stillValid(v)));
        return s;
      }
    } catch {
      // No state, or not ours: start from nothing.
    }
    return { fingerprint: this.fingerprint, blocks: {} };
  }

  stored(block: number): string | undefined {
    return this.state.blocks[String(block)];
  }

  get storedCount(): number {
    return Object.keys(this.state.blocks).length;
  }

  /** Records one stored block (written whole, then renamed: never half a file). */
  record(block: number, locator: string): void {
    this.state.blocks[String(block)] = locator;
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, this.path);
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}
