import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  closeSync,
} from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { removeLeftoverCgroups, type RunnerInput } from '@svc/runner';
import type { Backend, RunnerRecord } from './backend';

interface LocalState extends RunnerRecord {
  pid: number;
}

const alive = (pid: number, uuid: string): boolean => {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(uuid);
  } catch {
    return false;
  }
};

/**
 * Runners as child processes of this machine, within MaxVCPUs and MaxRAM. Each runner's pid
 * is kept in a state file, so that a restarted dispatcher finds the runners it left.
 */
export class LocalBackend implements Backend {
  readonly name = 'local';
  private readonly gone: RunnerRecord[] = [];
  private readonly killTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    readonly stateDir: string,
    readonly maxVCPUs: number = cpus().length,
    readonly maxRAM: number = Math.floor(totalmem() * 0.9),
    readonly runnerMain: string = require.resolve('@svc/runner/dist/main.js'),
    readonly killAfterMs = 60_000,
  ) {
    mkdirSync(join(stateDir, 'runners'), { recursive: true });
    mkdirSync(join(stateDir, 'work'), { recursive: true });
  }

  private file(uuid: string): string {
    return join(this.stateDir, 'runners', `${uuid}.json`);
  }

  async list(): Promise<Map<string, RunnerRecord>> {
    const out = new Map<string, RunnerRecord>();
    for (const name of readdirSync(join(this.stateDir, 'runners'))) {
      if (!name.endsWith('.json')) continue;
      let state: LocalState;
      try {
        state = JSON.parse(readFileSync(join(this.stateDir, 'runners', name), 'utf8'));
      } catch {
        continue;
      }
      if (alive(state.pid, state.uuid)) out.set(state.uuid, state);
      else this.forget(state);
    }
    return out;
  }

  neverFits(vcpus: number, ram: number): string | null {
    if (vcpus <= this.maxVCPUs && ram <= this.maxRAM) return null;
    return `container requires ${vcpus} VCPUs and ${ram} bytes of RAM; the largest this cluster can run is ${this.maxVCPUs} VCPUs and ${this.maxRAM} bytes`;
  }

  fitsNow(vcpus: number, ram: number, running: RunnerRecord[]): boolean {
    const v = running.reduce((n, r) => n + r.vcpus, 0);
    const m = running.reduce((n, r) => n + r.ram, 0);
    return v + vcpus <= this.maxVCPUs && m + ram <= this.maxRAM;
  }

  async start(record: RunnerRecord, input: RunnerInput): Promise<void> {
    const work = join(this.stateDir, 'work', record.uuid);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true, mode: 0o700 });
    // the tokens go in a file only the runner reads (never in arguments or the environment)
    const inputFile = join(this.stateDir, 'runners', `${record.uuid}.input`);
    writeFileSync(inputFile, JSON.stringify(input), { mode: 0o600 });
    const log = openSync(join(this.stateDir, 'runners', `${record.uuid}.log`), 'a');
    const child = spawn(process.execPath, [this.runnerMain, record.uuid, inputFile, work], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    });
    closeSync(log);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    const state: LocalState = { ...record, pid: child.pid! };
    writeFileSync(this.file(record.uuid), JSON.stringify(state));
    child.unref();
    child.once('exit', () => {
      if (existsSync(this.file(record.uuid))) this.forget(record);
    });
  }

  /** A runner that is gone: its files, work directory and any cgroups it left go too. */
  private forget(record: RunnerRecord): void {
    const uuid = record.uuid;
    removeLeftoverCgroups(uuid);
    rmSync(join(this.stateDir, 'work', uuid), { recursive: true, force: true });
    // the state file goes last: while it exists, the runner counts as known
    for (const ext of ['log', 'input', 'json']) {
      rmSync(join(this.stateDir, 'runners', `${uuid}.${ext}`), { force: true });
    }
    const t = this.killTimers.get(uuid);
    if (t) clearTimeout(t);
    this.killTimers.delete(uuid);
    this.gone.push(record);
  }

  async stop(uuid: string): Promise<void> {
    if (this.killTimers.has(uuid)) return;
    let state: LocalState;
    try {
      state = JSON.parse(readFileSync(this.file(uuid), 'utf8'));
    } catch {
      return;
    }
    const signal = (s: NodeJS.Signals) => {
      if (!alive(state.pid, uuid)) return;
      try {
        process.kill(state.pid, s);
      } catch {
        /* gone */
      }
    };
    signal('SIGTERM');
    const t = setTimeout(() => signal('SIGKILL'), this.killAfterMs);
    t.unref();
    this.killTimers.set(uuid, t);
  }

  changed(): boolean {
    return this.gone.length > 0;
  }

  ended(): RunnerRecord[] {
    return this.gone.splice(0);
  }

  /** Stops every timer (the runners keep running). */
  close(): void {
    for (const t of this.killTimers.values()) clearTimeout(t);
  }
}
