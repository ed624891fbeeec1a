import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

/** Lock files this process holds: a lock naming our own pid but not here is a leftover. */
const held = new Set<string>();

export class DirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`${dir} is in use by another process (pid ${pid})`);
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function create(file: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Keeps a second process off an embedded data directory (two PostgreSQL instances on one
 * directory corrupt it): `<dir>.lock` holds the owner's pid. A lock whose process is gone (a
 * crash, kill -9) is taken over. Returns the release function.
 */
export function lockDirectory(dir: string): () => void {
  const file = `${dir}.lock`;
  if (held.has(file)) throw new DirectoryInUseError(dir, process.pid);
  if (!create(file)) {
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (alive(owner) && !(owner === process.pid && !held.has(file))) {
      throw new DirectoryInUseError(dir, owner);
    }
    rmSync(file, { force: true });
    if (!create(file)) throw new DirectoryInUseError(dir, Number(readFileSync(file, 'utf8')));
  }
  held.add(file);
  return () => {
    if (!held.delete(file)) return;
    rmSync(file, { force: true });
  };
}
