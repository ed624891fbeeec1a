import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ImageConfig } from './image-archive';
import { writeArchiveNamed } from './image-names';
import type { HostMount } from './mounts';

/** The engines that run a container with a daemon-style CLI (execution.md §1). */
export type OciEngine = 'podman' | 'docker';

/** Runs an engine command; answers its standard output, rejects when it fails. */
export type EngineCommand = (args: string[]) => Promise<string>;

export const engineCommand =
  (engine: OciEngine): EngineCommand =>
  async (args) =>
    (await promisify(execFile)(engine, args, { maxBuffer: 1 << 20 })).stdout;

export interface OciSpec {
  /** The engine's name for this container (to stop and remove it). */
  name: string;
  image: string;
  mounts: HostMount[];
  cwd: string;
  /** A file of `KEY=value` lines (the environment never goes in arguments: it holds tokens). */
  envFile: string;
  command: string[];
  network: boolean;
  ram: number;
  vcpus: number;
  /** A cgroup (v1 path below each controller) the container's group goes in, for usage. */
  cgroupParent: string | null;
  /** Whether the command reads a stdin mount. */
  stdin: boolean;
}

/** On cgroups v1 (or hybrid) machines, podman's default runtime crun cannot run; runc can. */
const cgroupsV1 = (): boolean => !existsSync('/sys/fs/cgroup/cgroup.controllers');
const onPath = (cmd: string): boolean =>
  (process.env['PATH'] ?? '/usr/bin:/bin')
    .split(':')
    .some((d) => d !== '' && existsSync(join(d, cmd)));

/** Why the engine cannot run containers here, or null (execution.md §1). */
export function ociProblem(engine: OciEngine, env: NodeJS.ProcessEnv = process.env): string | null {
  const r = spawnSync(engine, ['info', '--format', '{{json .}}'], {
    encoding: 'utf8',
    timeout: 20_000,
    env,
  });
  if (r.error) return `${engine} is not available: ${r.error.message}`;
  if (r.status !== 0) return `${engine} cannot run containers: ${(r.stderr || '').trim()}`;
  if (engine === 'podman' && cgroupsV1() && !onPath('runc'))
    return 'podman needs runc on a machine with cgroups v1 (its default runtime crun cannot run there)';
  return null;
}

/**
 * The `run` arguments, the same for podman and docker but for the few options only podman
 * needs here: runc on cgroups v1, and explicit open-file and process limits (podman as root
 * without CAP_SYS_RESOURCE cannot raise them to its defaults).
 */
export function ociRunArgs(engine: OciEngine, spec: OciSpec, v1 = cgroupsV1()): string[] {
  const args = ['run', '--name', spec.name];
  if (engine === 'podman') {
    // a container of this name left by an earlier runner of the same container goes
    args.push('--replace');
    if (v1) args.push('--runtime', 'runc');
    args.push('--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=32768:32768');
  }
  if (spec.stdin) args.push('--interactive');
  args.push('--network', spec.network ? 'bridge' : 'none');
  if (spec.ram > 0) args.push('--memory', String(spec.ram), '--memory-swap', String(spec.ram));
  args.push('--cpus', String(spec.vcpus));
  if (spec.cgroupParent) args.push('--cgroup-parent', spec.cgroupParent);
  if (!spec.mounts.some((m) => m.target === '/tmp')) args.push('--tmpfs', '/tmp');
  for (const m of spec.mounts) {
    args.push('--volume', `${m.host}:${m.target}:${m.writable ? 'rw' : 'ro'}`);
  }
  args.push('--read-only', '--workdir', spec.cwd, '--env-file', spec.envFile);
  // the command comes from the container, never from the image's Entrypoint or Cmd
  const [first = 'true', ...rest] = spec.command;
  args.push('--entrypoint', first, spec.image, ...rest);
  return args;
}

/** The engine's tag for an image collection (the cache key is its PDH). */
export const imageTag = (pdh: string): string =>
  `svc-image:${createHash('sha256').update(pdh).digest('hex').slice(0, 32)}`;

/**
 * The image a `load` reports: podman's "Loaded image: <name>" (or "Loaded image(s): a,b"),
 * docker's "Loaded image: <name>", or, for an archive without names, docker's
 * "Loaded image ID: sha256:…" and podman's "Loaded image: sha256:…".
 */
export function loadedImage(stdout: string): string | undefined {
  return /Loaded image(?: ID)?(?:\(s\))?:\s*(\S+)/.exec(stdout)?.[1]?.split(',')[0];
}

/** The image's configuration as the engine keeps it, or undefined when it has no such image. */
const inspectConfig = (engine: OciEngine, ref: string) =>
  engineCommand(engine)(['image', 'inspect', '--format', '{{json .Config}}', ref])
    .then((out) => configOf(JSON.parse(out) as Partial<ImageConfig> | null))
    .catch(() => undefined);

/**
 * The image of `pdh` in the engine's store, loaded when missing from its archive (a file
 * `archive()` writes), renamed on the way as a stream.
 */
export async function ociImage(
  engine: OciEngine,
  pdh: string,
  archive: () => Promise<string>,
  work: string,
): Promise<{ ref: string; config: ImageConfig; loaded: boolean }> {
  const ref = imageTag(pdh);
  const cached = await inspectConfig(engine, ref);
  if (cached) return { ref, config: cached, loaded: false };
  const source = await archive();
  const file = join(work, 'image-named.tar');
  try {
    await writeArchiveNamed(source, file, ref);
    rmSync(source, { force: true });
    const loaded = await engineCommand(engine)(['load', '--input', file]);
    const id = loadedImage(loaded);
    if (!id) throw new Error(`${engine} load named no image: ${loaded.trim()}`);
    // named ref already, unless it was an OCI archive (loaded without a name)
    await engineCommand(engine)(['tag', id, ref]);
  } finally {
    rmSync(file, { force: true });
    rmSync(source, { force: true });
  }
  const config = await inspectConfig(engine, ref);
  if (!config) throw new Error(`${engine} has no image ${ref} after loading it`);
  return { ref, config, loaded: true };
}

const configOf = (c: Partial<ImageConfig> | null): ImageConfig => ({
  Env: c?.Env ?? [],
  User: c?.User ?? '',
  WorkingDir: c?.WorkingDir ?? '',
});

/** Writes the environment file `ociRunArgs` names (0600, in the work directory). */
export function writeEnvFile(path: string, env: Record<string, string>): void {
  const lines = Object.entries(env).map(([k, v]) => `${k}=${v.replace(/\n/g, ' ')}`);
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 });
}

/** Starts `engine run` (the client process; the container itself is the engine's). */
export function startOci(
  engine: OciEngine,
  spec: OciSpec,
  stdio: { stdin: number | 'ignore'; stdout: number | 'pipe'; stderr: number | 'pipe' },
): ChildProcess {
  return spawn(engine, ociRunArgs(engine, spec), {
    stdio: [stdio.stdin, stdio.stdout, stdio.stderr],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  });
}

/** Signals the container (the client's own death would leave it running). */
export async function signalOci(engine: OciEngine, name: string, signal: string): Promise<void> {
  await engineCommand(engine)(['kill', '--signal', signal, name]).catch(() => undefined);
}

/** Whether the kernel killed the container for memory; then removes it. */
export async function removeOci(engine: OciEngine, name: string): Promise<{ oomKilled: boolean }> {
  const oom = await engineCommand(engine)(['inspect', '--format', '{{.State.OOMKilled}}', name])
    .then((out) => out.trim() === 'true')
    .catch(() => false);
  await engineCommand(engine)(['rm', '--force', name]).catch(() => undefined);
  return { oomKilled: oom };
}
