import type { Json } from './json';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ApiClient } from './http';
import { serializeManifestTree, type FileNode } from '@svc/blocks';
import { Cgroups } from './cgroup';
import { EngineImages } from './engine-images';
import { ImageCache, type LoadedImage } from './image';
import { LogFile } from './logs';
import { ContainerError, prepareMounts, type PreparedMounts } from './mounts';
import { OutputSaver } from './output';
import { startSandbox, userOf } from './sandbox';
import {
  engineCommand,
  imageTag,
  ociImage,
  removeOci,
  signalOci,
  startOci,
  writeEnvFile,
  type OciEngine,
} from './oci';
import type { RunnerInput } from './settings';
import { CollectionStore } from './store';

type Container = Json;
const LOG_FILES = ['stdout.txt', 'stderr.txt', 'runner.txt', 'usage.txt', 'container.json'];

/** One container's run, step by step (execution.md §3). */
class Run {
  private readonly admin: ApiClient;
  private readonly store: CollectionStore;
  private readonly logDir: string;
  private readonly runnerLog: LogFile;
  private logCollection: string | null = null;
  private logPdh: string | null = null;
  private stopReason: 'cancel' | 'maxrun' | null = null;
  private child: ReturnType<typeof startSandbox> | null = null;
  private cgroups: Cgroups | null = null;
  private saving: Promise<void> = Promise.resolve();
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
    this.admin = new ApiClient(input.apiHost, input.recordToken, input.insecure);
    const own = new ApiClient(input.apiHost, input.containerToken, input.insecure);
    this.store = new CollectionStore(own);
    this.logDir = join(work, 'logs');
    mkdirSync(this.logDir, { recursive: true });
    this.runnerLog = new LogFile(join(this.logDir, 'runner.txt'), input.logBytesPerFile);
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

  async update(attrs: Record<string, unknown>): Promise<Container> {
    const res = await this.admin.request('PUT', `/svc/v1/containers/${this.uuid}`, {
      json: { container: attrs },
    });
    if (res.status !== 200) throw new Error(`updating the container: ${res.status} ${res.text}`);
    return res.body as Container;
  }

  async container(): Promise<Container> {
    const res = await this.admin.request('GET', `/svc/v1/containers/${this.uuid}`);
    if (res.status !== 200) throw new Error(`reading the container: ${res.status} ${res.text}`);
    return res.body as Container;
  }

  /** The image root, from the cache or unpacked from its collection's one `.tar` file. */
  async loadImage(pdh: string): Promise<LoadedImage> {
    if (this.engine) return this.loadEngineImage(this.engine, pdh);
    const cache = new ImageCache(this.input.cacheDir);
    const hit = cache.lookup(pdh);
    if (hit) {
      this.note(`image ${pdh} found in the cache`);
      return hit;
    }
    try {
      const image = cache.store(pdh, await this.readArchive(pdh));
      for (const r of image.refused) this.note(`image entry refused (leaves the root): ${r}`);
      return image;
    } catch (err) {
      throw new ContainerError(`cannot load image ${pdh}: ${(err as Error).message}`);
    }
  }

  /** The bytes of the image collection's one `.tar` file. */
  private async readArchive(pdh: string): Promise<Buffer> {
    // progress only when loading takes time: a cached image costs no request
    await this.update({ runtime_status: { activity: 'loading image' } });
    const tree = await this.store.tree(pdh);
    const tars = [...tree.children].filter(
      ([n, node]) => node.kind === 'file' && n.endsWith('.tar'),
    );
    if (tars.length !== 1 || tree.children.size !== 1) {
      throw new Error('the collection must hold exactly one .tar file');
    }
    const archive = await this.store.readFile(tars[0]![1] as FileNode);
    this.note(`image archive ${tars[0]![0]} read (${archive.length} bytes), loading`);
    return archive;
  }

  /** podman or docker: the image in the engine's own store, loaded once per PDH. */
  private async loadEngineImage(engine: OciEngine, pdh: string): Promise<LoadedImage> {
    try {
      const cached = new EngineImages(engineCommand(engine), join(this.input.cacheDir, engine));
      // before the load: another runner's eviction must find this image recently used
      cached.touch(imageTag(pdh));
      const image = await ociImage(engine, pdh, () => this.readArchive(pdh), this.work);
      this.note(
        `image ${pdh} ${image.loaded ? 'loaded into' : 'found in'} ${engine} as ${image.ref}`,
      );
      // only a load grows the store
      if (image.loaded) {
        for (const gone of await cached.evict(image.ref).catch(() => [])) {
          this.note(`image ${gone} removed from ${engine} (least recently used)`);
        }
      }
      return { root: '', config: image.config, ref: image.ref };
    } catch (err) {
      throw new ContainerError(`cannot load image ${pdh}: ${(err as Error).message}`);
    }
  }

  /**
   * Saves the log files as the log collection and sets the container's `log`. The files go
   * in one block (one request, however many files); the final save also sets the
   * collection's expiry, so no request is left for after the container is final.
   */
  saveLogs(final = false): Promise<void> {
    this.saving = this.saving.then(async () => {
      const files: [string, Buffer][] = [];
      for (const name of LOG_FILES) {
        try {
          files.push([name, readFileSync(join(this.logDir, name))]);
        } catch {
          /* not written (a redirected stream) */
        }
      }
      const manifest_text = serializeManifestTree(await this.store.writeFiles(files));
      const expiry = final ? this.expiry() : {};
      const record = this.logCollection
        ? await this.store.update(this.logCollection, { manifest_text, ...expiry })
        : await this.store.create({
            name: `Log of container ${this.uuid}`,
            manifest_text,
            properties: { type: 'log', container_uuid: this.uuid },
            ...expiry,
          });
      this.logCollection = record['uuid'];
      if (record['portable_data_hash'] !== this.logPdh) {
        this.logPdh = record['portable_data_hash'];
        if (!final) await this.update({ log: this.logPdh });
      }
    });
    return this.saving.catch((err) =>
      this.note(`saving the log failed: ${(err as Error).message}`),
    );
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
    const env: Record<string, string> = {};
    for (const kv of image.config.Env) {
      const eq = kv.indexOf('=');
      if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
    Object.assign(env, c['environment'] ?? {});
    if (c['runtime_constraints']?.['API']) {
      // host:port as for clients outside; the scheme only when it is not the default https
      const url = new URL(this.input.apiHost);
      env['SVC_API_HOST'] = url.host;
      if (url.protocol === 'http:') env['SVC_API_SCHEME'] = 'http';
      env['SVC_API_TOKEN'] = this.input.containerToken;
      env['SVC_API_HOST_INSECURE'] = this.input.insecure ? '1' : '0';
    }
    if (!env['PATH']) env['PATH'] = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
    return env;
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

  async finish(attrs: Record<string, unknown>): Promise<void> {
    this.runnerLog.end();
    await this.saveLogs(true);
    if (this.logPdh) attrs['log'] = this.logPdh;
    await this.update(attrs);
  }

  async run(): Promise<number> {
    // the record (unless the dispatcher handed over its lock's answer) and the secret mounts
    // in one round trip
    const [first, secrets] = await Promise.all([
      this.locked ?? this.container(),
      this.store.client.request('GET', `/svc/v1/containers/${this.uuid}/secret_mounts`),
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
      let output: string | null = null;
      if (mounts.outputDir) {
        try {
          const saver = new OutputSaver(
            this.store,
            c['output_path'],
            mounts.outputDir,
            mounts.mounts,
          );
          const manifest_text = await saver.manifest();
          const out = await this.store.create({
            name: `Output of container ${this.uuid}`,
            manifest_text,
            properties: { type: 'output', container_uuid: this.uuid },
            ...this.expiry(),
          });
          output = out['portable_data_hash'];
          this.note(`output saved: ${output}`);
        } catch (err) {
          clearTimeout(slow);
          await saying;
          if (!(err instanceof ContainerError)) throw err;
          this.note(`invalid output: ${err.message}`);
          await this.finish({
            state: 'Cancelled',
            exit_code: code,
            runtime_status: { error: err.message },
          });
          return 0;
        }
      }
      clearTimeout(slow);
      await saying;
      const { activity: _a, ...rest } = status;
      await this.finish({
        state: 'Complete',
        exit_code: code,
        ...(output ? { output } : {}),
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
