import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const V1 = '/sys/fs/cgroup';

/**
 * Memory and CPU limits of one container through cgroup v1 groups (this machine kind has
 * cgroups v1). Where a group cannot be made the limit is missing and `notes` says so.
 */
export class Cgroups {
  readonly procsFiles: string[] = [];
  readonly notes: string[] = [];
  private readonly dirs: string[] = [];

  constructor(
    private readonly name: string,
    ram: number,
    vcpus: number,
  ) {
    this.make('memory', name, (dir) => {
      writeFileSync(join(dir, 'memory.limit_in_bytes'), String(ram));
      // swap would let a process go past its limit unnoticed
      if (existsSync(join(dir, 'memory.memsw.limit_in_bytes')))
        writeFileSync(join(dir, 'memory.memsw.limit_in_bytes'), String(ram));
    });
    this.make('cpu', name, (dir) => {
      writeFileSync(join(dir, 'cpu.shares'), String(Math.max(2, Math.round(vcpus * 1024))));
    });
    // accounting only: CPU seconds for usage.txt
    this.make('cpuacct', name, () => undefined);
  }

  private read(controller: string, file: string): number | null {
    const dir = this.dirs.find((d) => d.includes(`/${controller}/`));
    if (!dir) return null;
    try {
      return Number(readFileSync(join(dir, file), 'utf8').trim());
    } catch {
      return null;
    }
  }

  /** One usage sample: CPU seconds used so far, memory now and at its peak (bytes). */
  usage(): { cpuSeconds: number | null; memory: number | null; memoryPeak: number | null } {
    const ns = this.read('cpuacct', 'cpuacct.usage');
    return {
      cpuSeconds: ns === null ? null : Math.round(ns / 1e6) / 1e3,
      memory: this.read('memory', 'memory.usage_in_bytes'),
      memoryPeak: this.read('memory', 'memory.max_usage_in_bytes'),
    };
  }

  private make(controller: string, name: string, setup: (dir: string) => void): void {
    const dir = join(V1, controller, 'svc', name);
    try {
      mkdirSync(dir, { recursive: true });
      this.dirs.push(dir);
      setup(dir);
      this.procsFiles.push(join(dir, 'cgroup.procs'));
    } catch (err) {
      this.notes.push(`no ${controller} limit: ${(err as Error).message}`);
    }
  }

  private memoryDir(): string | undefined {
    return this.dirs.find((d) => d.includes('/memory/'));
  }

  /** True when the kernel killed a process of the group itself for memory. */
  private oomKilled(): boolean {
    const dir = this.memoryDir();
    if (!dir) return false;
    try {
      const m = /oom_kill (\d+)/.exec(readFileSync(join(dir, 'memory.oom_control'), 'utf8'));
      return Number(m?.[1] ?? 0) > 0;
    } catch {
      return false;
    }
  }

  /**
   * Whether a container this group holds was killed for memory, given how it ended. The kernel
   * counts a kill (oom_kill) in the group whose process it killed; podman and docker put the
   * container in a group of their own below this one and remove it when the container ends, so
   * for them the sign left here is a SIGKILL (137) while this group's peak reached its limit.
   * (A command that fills the page cache up to its limit and then SIGKILLs itself would read the
   * same.)
   */
  killedForMemory(exitCode: number | null): boolean {
    if (this.oomKilled()) return true;
    const peak = this.read('memory', 'memory.max_usage_in_bytes');
    const limit = this.read('memory', 'memory.limit_in_bytes');
    return exitCode === 137 && peak !== null && limit !== null && peak >= limit;
  }

  /** Every process still in the group. */
  pids(): number[] {
    const out = new Set<number>();
    for (const f of this.procsFiles) {
      try {
        for (const l of readFileSync(f, 'utf8').split('\n')) if (l) out.add(Number(l));
      } catch {
        /* group gone */
      }
    }
    return [...out];
  }

  /** Kills what is left and removes the groups, in every hierarchy (see `groupsNamed`). */
  remove(): void {
    for (const d of groupsNamed((n) => n === this.name)) {
      for (let i = 0; i < 20 && !tryRemove(d); i++) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      }
    }
  }
}

/**
 * The groups under `svc` whose names match, in every mounted hierarchy: the runner makes its
 * own in memory, cpu and cpuacct, but podman and docker, given the runner's group as the
 * parent, make it (and theirs below it) in all the others too (blkio, pids, freezer, ...).
 */
function groupsNamed(match: (name: string) => boolean): string[] {
  let hierarchies;
  try {
    hierarchies = readdirSync(V1, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  // cpu and cpuacct may be links to one co-mounted hierarchy: only real directories count
  for (const h of hierarchies.filter((e) => e.isDirectory())) {
    const base = join(V1, h.name, 'svc');
    try {
      for (const n of readdirSync(base)) if (match(n)) out.push(join(base, n));
    } catch {
      /* no svc groups in this hierarchy */
    }
  }
  return out;
}

const killQuietly = (pid: number): void => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
};

/**
 * Kills what is still in a group and in the groups below it, then removes them, deepest first
 * (podman and docker make groups of their own below the runner's: the container's and
 * conmon's); false while a process is still leaving one.
 */
function tryRemove(dir: string): boolean {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  let below = true;
  for (const e of entries) if (e.isDirectory() && !tryRemove(join(dir, e.name))) below = false;
  try {
    for (const l of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n')) {
      if (l) killQuietly(Number(l));
    }
    if (!below) return false;
    rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Removes the groups a runner of container `uuid` left behind (a runner killed before its
 * own cleanup), killing what is still in them. A killed process takes a moment to leave its
 * group, longer on a busy machine, so each group is tried again every 50 ms for up to
 * `patienceMs` without blocking the caller; resolves false if one was still there then.
 */
export async function removeLeftoverCgroups(uuid: string, patienceMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  let removed = true;
  for (const dir of groupsNamed((n) => n.startsWith(`${uuid}-`))) {
    while (!tryRemove(dir)) {
      if (Date.now() >= deadline) {
        removed = false;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return removed;
}
