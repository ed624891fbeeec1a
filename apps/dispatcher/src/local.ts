import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  removeLeftoverCgroups,
  type RunnerInput,
  type WorkerMessage,
  type WorkerReply,
} from '@svc/runner';
import type { Backend, RunnerRecord } from './backend';

interface LocalState extends RunnerRecord {
  pid: number;
  /** The process's start time (/proc/<pid>/stat field 22): a reused pid is not the runner. */
  started: string;
}

/** Field 22 of /proc/<pid>/stat, or null when there is no such process. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const alive = (state: LocalState): boolean =>
  Boolean(state.started) && startTimeOf(state.pid) === state.started;

/**
 * Runners as processes of this machine, within MaxVCPUs and MaxRAM. A runner process (a
 * worker) is started ahead of time and runs containers one after another: a container's
 * start then costs no Node.js start. Each container's runner pid is kept in a state file,
 * so that a restarted dispatcher finds the runners it left; the worker writes `<uuid>.ended`
 * when the command has exited (the slot is free: the worker may take the next container
 * while it saves this one's output and logs) and renames the state file to `<uuid>.done`
 * when the container is final.
 */
export class LocalBackend implements Backend {
  readonly name = 'local';
  private readonly gone: RunnerRecord[] = [];
  /** Runners being cleaned up after they ended (forget), by container uuid. */
  private readonly forgetting = new Set<string>();
  private readonly killTimers = new Map<string, NodeJS.Timeout>();
  /** Workers waiting for a container, and the one being started. */
  private readonly idle: ChildProcess[] = [];
  private starting: Promise<ChildProcess> | null = null;
  /** Workers running a container, by container uuid. */
  private readonly busy = new Map<string, ChildProcess>();
  /** Containers whose command has exited (their runner finishes them; no slot held). */
  private readonly commandEnded = new Set<string>();
  private roomListener: () => void = () => undefined;
  /** Runners the last list found and those started since, until they end. */
  private readonly knownRunners = new Map<string, RunnerRecord>();
  private closed = false;

  constructor(
    readonly stateDir: string,
    readonly maxVCPUs: number = cpus().length,
    readonly maxRAM: number = Math.floor(totalmem() * 0.9),
    readonly workerMain: string = require.resolve('@svc/runner/dist/worker.js'),
    readonly killAfterMs = 60_000,
  ) {
    mkdirSync(join(stateDir, 'runners'), { recursive: true });
    mkdirSync(join(stateDir, 'work'), { recursive: true });
  }

  private file(uuid: string, ext = 'json'): string {
    return join(this.stateDir, 'runners', `${uuid}.${ext}`);
  }

  private read(path: string): LocalState | null {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as LocalState;
    } catch {
      return null;
    }
  }

  async list(): Promise<Map<string, RunnerRecord>> {
    const out = new Map<string, RunnerRecord>();
    for (const name of readdirSync(join(this.stateDir, 'runners'))) {
      const state = this.read(join(this.stateDir, 'runners', name));
      if (!state) continue;
      if (name.endsWith('.json') && alive(state)) {
        const ended =
          this.commandEnded.has(state.uuid) || existsSync(this.file(state.uuid, 'ended'));
        out.set(state.uuid, { ...state, commandEnded: ended });
      } else if (name.endsWith('.json') || name.endsWith('.done')) this.forget(state);
    }
    this.knownRunners.clear();
    for (const [uuid, r] of out) this.knownRunners.set(uuid, r);
    return out;
  }

  known(): RunnerRecord[] {
    return [...this.knownRunners.values()].map((r) =>
      this.commandEnded.has(r.uuid) ? { ...r, commandEnded: true } : r,
    );
  }

  neverFits(vcpus: number, ram: number): string | null {
    if (vcpus <= this.maxVCPUs && ram <= this.maxRAM) return null;
    return `container requires ${vcpus} VCPUs and ${ram} bytes of RAM; the largest this cluster can run is ${this.maxVCPUs} VCPUs and ${this.maxRAM} bytes`;
  }

  fitsNow(vcpus: number, ram: number, running: RunnerRecord[]): boolean {
    // a runner whose command has exited holds no slot (after a dispatcher restart that is not
    // known, and each counts until it ends)
    const holding = running.filter((r) => !r.commandEnded);
    const v = holding.reduce((n, r) => n + r.vcpus, 0);
    const m = holding.reduce((n, r) => n + r.ram, 0);
    return v + vcpus <= this.maxVCPUs && m + ram <= this.maxRAM;
  }

  onRoom(listener: () => void): void {
    this.roomListener = listener;
  }

  /** Starts a worker ahead of the first container. */
  prepare(): void {
    this.spare();
  }

  async start(
    record: RunnerRecord,
    input: RunnerInput,
    container?: Record<string, unknown>,
  ): Promise<void> {
    const work = join(this.stateDir, 'work', record.uuid);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true, mode: 0o700 });
    const worker = await this.takeWorker();
    const stateFile = this.file(record.uuid);
    const state: LocalState = { ...record, pid: worker.pid!, started: startTimeOf(worker.pid!)! };
    // the state file comes first: from now on a restarted dispatcher knows this runner
    writeFileSync(stateFile, JSON.stringify(state));
    this.knownRunners.set(record.uuid, record);
    this.busy.set(record.uuid, worker);
    // the tokens go over the IPC channel (never in arguments or the environment)
    const msg: WorkerMessage = {
      kind: 'run',
      uuid: record.uuid,
      input,
      work,
      stateFile,
      ...(container ? { container } : {}),
    };
    worker.send(msg);
    this.spare();
  }

  /** An idle worker, or a new one. */
  private async takeWorker(): Promise<ChildProcess> {
    for (;;) {
      const w = this.idle.pop();
      if (!w) break;
      if (w.connected && w.exitCode === null) return w;
    }
    if (this.starting) {
      const w = await this.starting.catch(() => null);
      const i = w ? this.idle.indexOf(w) : -1;
      if (w && i >= 0) return this.idle.splice(i, 1)[0]!;
    }
    return this.spawnWorker();
  }

  /** Keeps one worker waiting, so the next container does not wait for a Node.js start. */
  private spare(): void {
    if (this.closed || this.idle.length > 0 || this.starting) return;
    this.starting = this.spawnWorker()
      .then((w) => {
        this.idle.push(w);
        return w;
      })
      .finally(() => (this.starting = null));
    this.starting.catch(() => undefined);
  }

  private spawnWorker(): Promise<ChildProcess> {
    const log = openSync(join(this.stateDir, 'runners.log'), 'a');
    const child = spawn(process.execPath, [this.workerMain], {
      detached: true,
      stdio: ['ignore', 'ignore', log, 'ipc'],
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    });
    closeSync(log);
    // the dispatcher may exit while workers run: they finish their container, then leave;
    // the channel stays referenced until close(), which is what keeps a dispatcher waiting
    // for a worker's answer alive
    child.unref();
    child.on('message', (m: WorkerReply) => {
      if (m.kind === 'free') this.free(m.uuid, child);
      else if (m.kind === 'done') this.done(m.uuid, child);
    });
    child.once('exit', () => {
      const i = this.idle.indexOf(child);
      if (i >= 0) this.idle.splice(i, 1);
      for (const [uuid, w] of this.busy) {
        if (w !== child) continue;
        this.busy.delete(uuid);
        this.commandEnded.delete(uuid);
        this.knownRunners.delete(uuid);
        const state = this.read(this.file(uuid)) ?? this.read(this.file(uuid, 'done'));
        if (state) this.forget(state);
      }
      this.roomListener();
    });
    return new Promise<ChildProcess>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`runner worker exited (${code})`)));
      child.on('message', (m: WorkerReply) => {
        if (m.kind === 'ready') resolve(child);
      });
    });
  }

  /**
   * A worker's command has exited: the container's slot is free, and the worker can take
   * another container while it finishes this one.
   */
  private free(uuid: string, worker: ChildProcess): void {
    if (!this.busy.has(uuid)) return;
    this.commandEnded.add(uuid);
    this.release(worker);
    this.roomListener();
  }

  /** A worker's container is final: the worker waits for another, unless it already does. */
  private done(uuid: string, worker: ChildProcess): void {
    this.busy.delete(uuid);
    this.commandEnded.delete(uuid);
    this.knownRunners.delete(uuid);
    const state = this.read(this.file(uuid, 'done'));
    if (state) this.forget(state);
    this.release(worker);
    this.roomListener();
  }

  /** A worker whose command has exited joins the waiting ones (if it is not there yet). */
  private release(worker: ChildProcess): void {
    if (this.idle.includes(worker)) return;
    // running a command still: not free (a worker runs one command at a time)
    for (const [uuid, w] of this.busy) if (w === worker && !this.commandEnded.has(uuid)) return;
    const finishing = [...this.busy.values()].includes(worker);
    // as many waiting workers as containers could run at once; more would only use memory
    if (!this.closed && this.idle.length < Math.max(1, this.maxVCPUs)) this.idle.push(worker);
    else if (!finishing) worker.disconnect();
  }

  /**
   * A runner that is gone: its cgroups (once what it left in them has died), then its work
   * directory and files go too. Until its state file is removed, last, a restarted dispatcher
   * would find it and finish the job.
   */
  private forget(record: RunnerRecord): void {
    const uuid = record.uuid;
    if (this.forgetting.has(uuid)) return;
    this.forgetting.add(uuid);
    this.knownRunners.delete(uuid);
    const t = this.killTimers.get(uuid);
    if (t) clearTimeout(t);
    this.killTimers.delete(uuid);
    this.gone.push(record);
    void removeLeftoverCgroups(uuid)
      .then(() => {
        rmSync(join(this.stateDir, 'work', uuid), { recursive: true, force: true });
        for (const ext of ['log', 'input', 'ended', 'done', 'json'])
          rmSync(this.file(uuid, ext), { force: true });
      })
      // what could not be removed now is found and removed again by a later list()
      .catch(() => undefined)
      .finally(() => this.forgetting.delete(uuid));
  }

  async stop(uuid: string): Promise<void> {
    if (this.killTimers.has(uuid)) return;
    const state = this.read(this.file(uuid));
    if (!state) return;
    const worker = this.busy.get(uuid);
    // through the channel when there is one: the worker stops only this container
    if (worker?.connected) worker.send({ kind: 'stop', uuid } satisfies WorkerMessage);
    else this.signal(uuid, state, 'SIGTERM');
    const t = setTimeout(() => this.signal(uuid, state, 'SIGKILL'), this.killAfterMs);
    t.unref();
    this.killTimers.set(uuid, t);
  }

  /**
   * Signals the runner of `uuid` while it still runs that container's command (once that has
   * exited, the runner may be running the next container's: that one must not be stopped).
   */
  private signal(uuid: string, state: LocalState, s: NodeJS.Signals): void {
    if (!existsSync(this.file(uuid)) || existsSync(this.file(uuid, 'ended')) || !alive(state))
      return;
    try {
      process.kill(state.pid, s);
    } catch {
      /* gone */
    }
  }

  changed(): boolean {
    return this.gone.length > 0;
  }

  ended(): RunnerRecord[] {
    return this.gone.splice(0);
  }

  /** Stops every timer and lets waiting workers go (running ones finish their container). */
  close(): void {
    this.closed = true;
    for (const t of this.killTimers.values()) clearTimeout(t);
    for (const w of this.idle.splice(0)) if (w.connected) w.disconnect();
    void this.starting?.then((w) => w.connected && w.disconnect()).catch(() => undefined);
    for (const w of this.busy.values()) if (w.connected) w.disconnect();
  }
}
