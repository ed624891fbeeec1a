import type { Json } from './json';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ContainerDispatch, SvcClient } from '@svc/client';
import { Cgroups } from './cgroup';
import { containerEnv } from './environment';
import type { LoadedImage } from './image';
import { loadImage } from './load-image';
import { LogCollection } from './log-collection';
import { LogFile } from './logs';
import { ContainerError, prepareMounts, type PreparedMounts } from './mounts';
import { OutputSaver } from './output';
import { startSandbox, userOf } from './sandbox';
import { removeOci, signalOci, startOci, writeEnvFile, type OciEngine } from './oci';
import type { RunnerInput } from './settings';
import { CollectionStore } from './store';

type Container = Json;

/**
 * One client per API and TLS setting for the whole process, each token a view of it: a worker
 * that runs one container after another keeps its connections to the API open for the next
 * (the token is a header of each request, not a property of the connection).
 */
const baseClients = new Map<string, SvcClient>();
function clientFor(input: RunnerInput, token: string): SvcClient {
  const key = `${input.apiHost} ${input.insecure}`;
  let base = baseClients.get(key);
  if (!base) {
    base = new SvcClient({ host: input.apiHost, token: null, insecure: input.insecure });
    baseClients.set(key, base);
  }
  return base.withToken(token);
}

/** One container's run, step by step (execution.md §3). */
class Run {
  private readonly admin: SvcClient;
  private readonly store: CollectionStore;
  private readonly logDir: string;
  private readonly runnerLog: LogFile;
  private readonly logs: LogCollection;
  private stopReason: 'cancel' | 'maxrun' | null = null;
  private child: ReturnType<typeof startSandbox> | null = null;
  private cgroups: Cgroups | null = null;
  /** Whether podman or docker found the container killed for memory. */
  private engineOom = false;
  /** podman or docker (execution.md §1), or null for bubblewrap. */
  private readonly engine: OciEngine | null;
  /** Settles once the command has exited (or will never start): its CPU and RAM are free. */
  readonly commandEnded: Promise<void>;
  private endCommand: () => void = () => undefined;

  constructor(
    readonly uuid: string,
    readonly input: RunnerInput,
    readonly work: string,
    /** The container record as the dispatcher's lock answered it, when it was handed over. */
    readonly locked: Container | null = null,
  ) {
    this.engine = input.engine === 'podman' || input.engine === 'docker' ? input.engine : null;
    this.commandEnded = new Promise<void>((r) => (this.endCommand = r));
    this.admin = clientFor(input, input.recordToken);
    this.store = new CollectionStore(clientFor(input, input.containerToken));
    this.logDir = join(work, 'logs');
    mkdirSync(this.logDir, { recursive: true });
    this.runnerLog = new LogFile(join(this.logDir, 'runner.txt'), input.logBytesPerFile);
    this.logs = new LogCollection(this.store, this.logDir, uuid);
  }

  private get cgroupName(): string {
    return `${this.uuid}-${process.pid}`;
  }

  /** The engine's name of the container. */
  private get ociName(): string {
    return `svc-${this.uuid}`;
  }

  note(text: string): void {
    this.runnerLog.line(text);
  }

  /** Updates the container record with the runner's scoped token (retried on 502/503). */
  async update(attrs: Record<string, unknown>): Promise<Container> {
    try {
      return (await this.admin.api.containers.update({
        uuid: this.uuid,
        attributes: attrs as never,
      })) as Container;
    } catch (err) {
      throw new Error(`updating the container: ${(err as Error).message}`, { cause: err });
    }
  }

  async container(): Promise<Container> {
    try {
      return (await this.admin.api.containers.get({ uuid: this.uuid })) as Container;
    } catch (err) {
      throw new Error(`reading the container: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The container's image, ready to run (execution.md §3.1). */
  loadImage(pdh: string): Promise<LoadedImage> {
    return loadImage(
      {
        store: this.store,
        cacheDir: this.input.cacheDir,
        work: this.work,
        engine: this.engine,
        note: (t) => this.note(t),
        // progress only when loading takes time: a cached image costs no request
        loading: () => this.update({ runtime_status: { activity: 'loading image' } }),
      },
      pdh,
    );
  }

  /**
   * Saves the log collection and, while running, sets the container's `log` to it (the
   * final save sets the expiry instead, and `finish` sets `log`).
   */
  async saveLogs(final = false): Promise<void> {
    try {
      const changed = await this.logs.save(final ? this.expiry() : null);
      if (changed && !final) await this.update({ log: this.logs.pdh });
    } catch (err) {
      this.note(`saving the log failed: ${(err as Error).message}`);
    }
  }

  /**
   * Collections of a final container expire once the requests have their copies (§3.5):
   * finish + BlobSigningTTL, set in the same request that saves them at the end.
   */
  expiry(): { trash_at: string; delete_at: string } {
    const at = new Date(Date.now() + this.input.blobSigningTTL * 1000).toISOString();
    return { trash_at: at, delete_at: at };
  }

  env(c: Container, image: LoadedImage): Record<string, string> {
    const { apiHost, containerToken: token, insecure } = this.input;
    return containerEnv(c, image.config, { apiHost, token, insecure });
  }

  /** SIGTERM to the runner, or max_run_time: stop the command (SIGKILL after 5 s). */
  stop(reason: 'cancel' | 'maxrun'): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.note(
      reason === 'cancel'
        ? 'cancel requested: stopping the command'
        : 'maximum run time exceeded: stopping the command',
    );
    if (this.engine && this.child) {
      // the engine's client going away would leave the container running: signal it
      const engine = this.engine;
      void signalOci(engine, this.ociName, 'TERM');
      setTimeout(() => void signalOci(engine, this.ociName, 'KILL'), 5000).unref();
      return;
    }
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      for (const p of this.cgroups?.pids() ?? []) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }, 5000).unref();
  }

  /** podman or docker run, inside this container's cgroups (for usage.txt) when there are any. */
  private startEngine(
    engine: OciEngine,
    c: Container,
    image: LoadedImage,
    mounts: PreparedMounts,
    cwd: string,
    streams: Parameters<typeof startOci>[2],
  ): ReturnType<typeof startOci> {
    const rc = c['runtime_constraints'] ?? {};
    const envFile = join(this.work, 'engine.env');
    writeEnvFile(envFile, this.env(c, image));
    return startOci(
      engine,
      {
        name: this.ociName,
        image: image.ref!,
        mounts: mounts.mounts,
        cwd,
        envFile,
        command: c['command'],
        network: Boolean(rc['API']),
        ram: Number(rc['ram'] ?? 0),
        vcpus: Number(rc['vcpus'] ?? 1),
        cgroupParent: this.cgroups?.procsFiles.length ? `/svc/${this.cgroupName}` : null,
        stdin: streams.stdin !== 'ignore',
      },
      streams,
    );
  }

  /** Runs the command; answers its exit code (128 + n for a signal n). */
  async exec(c: Container, image: LoadedImage, mounts: PreparedMounts): Promise<number> {
    const rc = c['runtime_constraints'] ?? {};
    this.cgroups = new Cgroups(
      this.cgroupName,
      Number(rc['ram'] ?? 0) || 2 ** 40,
      Number(rc['vcpus'] ?? 1),
    );
    for (const n of this.cgroups.notes) this.note(n);
    const { uid, gid } = this.engine ? { uid: -1, gid: -1 } : userOf(image.root, image.config.User);
    const cwd = posix.isAbsolute(c['cwd'] ?? '')
      ? c['cwd']
      : posix.join(image.config.WorkingDir || '/', c['cwd'] ?? '');
    const fds: number[] = [];
    const open = (p: string | null, flags: string): number | null => {
      if (!p) return null;
      const fd = openSync(p, flags);
      fds.push(fd);
      return fd;
    };
    const stdin = open(mounts.stdin, 'r') ?? 'ignore';
    const stdoutFd = open(mounts.stdout, 'w');
    const stderrFd = open(mounts.stderr, 'w');
    const stdoutLog = new LogFile(join(this.logDir, 'stdout.txt'), this.input.logBytesPerFile);
    const stderrLog = new LogFile(join(this.logDir, 'stderr.txt'), this.input.logBytesPerFile);
    const user = this.engine ? `the image's user (${this.engine})` : `${uid}:${gid}`;
    this.note(`running ${JSON.stringify(c['command'])} in ${cwd} as ${user}`);
    const streams = { stdin, stdout: stdoutFd ?? 'pipe', stderr: stderrFd ?? 'pipe' } as const;
    const child = this.engine
      ? this.startEngine(this.engine, c, image, mounts, cwd, streams)
      : startSandbox(
          {
            root: image.root,
            mounts: mounts.mounts,
            cwd,
            env: this.env(c, image),
            command: c['command'],
            network: Boolean(rc['API']),
            uid,
            gid,
            cgroupProcs: this.cgroups.procsFiles,
          },
          streams,
        );
    this.child = child;
    if (this.stopReason) {
      // asked to stop while the sandbox was starting: stop it now
      const reason = this.stopReason;
      this.stopReason = null;
      this.stop(reason);
    }
    child.stdout?.on('data', (b: Buffer) => stdoutLog.write(b));
    child.stderr?.on('data', (b: Buffer) => stderrLog.write(b));
    const usageLog = new LogFile(join(this.logDir, 'usage.txt'), this.input.logBytesPerFile);
    const sample = () => {
      const u = this.cgroups?.usage();
      const pids = this.cgroups?.pids().length ?? 0;
      const v = (x: number | null | undefined) => (x === null || x === undefined ? 'unknown' : x);
      usageLog.line(
        `cpu_seconds ${v(u?.cpuSeconds)} memory_bytes ${v(u?.memory)} memory_peak_bytes ${v(u?.memoryPeak)} processes ${pids}`,
      );
    };
    const timers = [
      setInterval(sample, this.input.usagePeriod * 1000),
      setInterval(() => void this.saveLogs(), this.input.logUpdatePeriod * 1000),
    ];
    const maxRun = Number(c['scheduling_parameters']?.['max_run_time'] ?? 0);
    if (maxRun > 0) timers.push(setTimeout(() => this.stop('maxrun'), maxRun * 1000));
    const code = await new Promise<number>((resolve) => {
      child.on('error', (err) => {
        this.note(`cannot start the sandbox: ${err.message}`);
        resolve(127);
      });
      child.on('close', (code, signal) => {
        const signals: Record<string, number> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGHUP: 1 };
        resolve(code ?? 128 + (signal ? (signals[signal] ?? 0) : 0));
      });
    });
    timers.forEach((t) => clearInterval(t));
    if (this.engine) this.engineOom = (await removeOci(this.engine, this.ociName)).oomKilled;
    sample();
    stdoutLog.end();
    stderrLog.end();
    usageLog.end();
    fds.forEach((fd) => closeSync(fd));
    this.note(`command exited with code ${code}`);
    // the sandbox's pid namespace ended with the command: its CPU and RAM are free while the
    // output and logs are saved (the cgroups stay until then, for the memory check)
    this.endCommand();
    return code;
  }

  /**
   * The container's output once its command ended (execution.md §3.7): the `output` it set
   * itself with its own token (a workflow runner's assembled collection), which is kept; else
   * the output directory saved by the output rules. `pdh` null: no output directory and none
   * set (the final update then leaves `output` as it is).
   */
  private async output(
    c: Container,
    mounts: PreparedMounts,
  ): Promise<{ pdh: string | null } | { invalid: string }> {
    // only a container with API access holds a token it can reach the API with
    const own = c['runtime_constraints']?.['API'] ? (await this.container())['output'] : null;
    if (typeof own === 'string') {
      this.note(`output was set by the container: ${own}`);
      return { pdh: null };
    }
    if (!mounts.outputDir) return { pdh: null };
    try {
      const saver = new OutputSaver(this.store, c['output_path'], mounts.outputDir, mounts.mounts);
      const out = await this.store.create({
        name: `Output of container ${this.uuid}`,
        manifest_text: await saver.manifest(),
        properties: { type: 'output', container_uuid: this.uuid },
        ...this.expiry(),
      });
      this.note(`output saved: ${out['portable_data_hash']}`);
      return { pdh: out['portable_data_hash'] };
    } catch (err) {
      if (err instanceof ContainerError) return { invalid: err.message };
      throw err;
    }
  }

  async finish(attrs: Record<string, unknown>): Promise<void> {
    this.runnerLog.end();
    await this.saveLogs(true);
    if (this.logs.pdh) attrs['log'] = this.logs.pdh;
    await this.update(attrs);
  }

  async run(): Promise<number> {
    // the record (unless the dispatcher handed over its lock's answer) and the secret mounts
    // in one round trip
    const [first, secrets] = await Promise.all([
      this.locked ?? this.container(),
      new ContainerDispatch(this.store.client).secretMounts(this.uuid),
    ]);
    let c = first;
    const { secret_mounts: _s, ...visible } = c;
    writeFileSync(join(this.logDir, 'container.json'), JSON.stringify(visible, null, 2));
    this.note(`runner started for container ${this.uuid} (pid ${process.pid})`);
    try {
      const image = await this.loadImage(c['container_image']);
      if (this.stopReason) throw new ContainerError('cancelled before start');
      const secretMounts =
        secrets.status === 200 ? ((secrets.body as Json)['secret_mounts'] ?? {}) : {};
      // Running once the image is ready (§3.2); the mounts are made meanwhile, and both have
      // settled before anything else happens
      const [prepared, running] = await Promise.allSettled([
        prepareMounts(this.store, this.work, c['mounts'] ?? {}, secretMounts, c['output_path']),
        this.update({ state: 'Running', runtime_status: { activity: 'running' } }),
      ]);
      if (running.status === 'rejected') throw running.reason;
      if (prepared.status === 'rejected') throw prepared.reason;
      const mounts = prepared.value;
      c = running.value;
      if (this.stopReason) throw new ContainerError('cancelled before start');
      // the first save comes after LogUpdatePeriod (or at the end of a shorter run)
      const code = await this.exec(c, image, mounts);
      if (this.stopReason === 'maxrun') {
        await this.finish({
          state: 'Cancelled',
          exit_code: code,
          runtime_status: { error: 'maximum run time exceeded' },
        });
        return 0;
      }
      if (this.stopReason === 'cancel') {
        await this.finish({
          state: 'Cancelled',
          exit_code: code,
          runtime_status: { activity: 'cancelled' },
        });
        return 0;
      }
      const status: Record<string, string> = { activity: 'saving output' };
      const ram = c['runtime_constraints']?.['ram'];
      if (this.cgroups?.killedForMemory(code) || this.engineOom) {
        status['warning'] = `container exceeded its memory limit of ${ram} bytes`;
        this.note(status['warning']);
      }
      // progress only when saving takes time: a small output costs no request for it
      let saying: Promise<unknown> = Promise.resolve();
      const slow = setTimeout(() => (saying = this.update({ runtime_status: status })), 1000);
      const output = await this.output(c, mounts).finally(() => clearTimeout(slow));
      await saying;
      const { activity: _a, ...rest } = status;
      if ('invalid' in output) {
        this.note(`invalid output: ${output.invalid}`);
        await this.finish({
          state: 'Cancelled',
          exit_code: code,
          runtime_status: { error: output.invalid },
        });
        return 0;
      }
      await this.finish({
        state: 'Complete',
        exit_code: code,
        ...(output.pdh ? { output: output.pdh } : {}),
        runtime_status: rest,
      });
      return 0;
    } catch (err) {
      const message =
        err instanceof ContainerError ? err.message : `runner failed: ${(err as Error).message}`;
      this.note(message);
      const current = await this.container().catch(() => null);
      if (current && (current['state'] === 'Locked' || current['state'] === 'Running')) {
        await this.finish({ state: 'Cancelled', runtime_status: { error: message } }).catch((e) =>
          process.stderr.write(`runner: ${(e as Error).message}\n`),
        );
      }
      return err instanceof ContainerError ? 0 : 1;
    } finally {
      this.cgroups?.remove();
      this.endCommand();
    }
  }
}

/** A container being run: `stop()` cancels it (SIGTERM's meaning, §3.7). */
export interface ContainerRun {
  stop(): void;
  /**
   * Settles when the command has exited (or never started): what remains, saving the output
   * and logs and the final update, needs none of the container's CPU or RAM.
   */
  commandEnded: Promise<void>;
  /** The runner's exit code for this container, once it is final and `work` is removed. */
  done: Promise<number>;
}

/**
 * Starts running container `uuid` in `work` (removed at the end); `locked` is the container
 * record the dispatcher's lock answered, when it hands it over (then it is not read again).
 */
export function startContainer(
  uuid: string,
  input: RunnerInput,
  work: string,
  locked: Json | null = null,
): ContainerRun {
  mkdirSync(work, { recursive: true });
  const run = new Run(uuid, input, work, locked);
  const done = run.run().finally(() => {
    rmSync(work, { recursive: true, force: true });
  });
  return { stop: () => run.stop('cancel'), commandEnded: run.commandEnded, done };
}
