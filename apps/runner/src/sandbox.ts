import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync, mkdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { HostMount } from './mounts';

export interface SandboxSpec {
  root: string;
  mounts: HostMount[];
  cwd: string;
  env: Record<string, string>;
  command: string[];
  network: boolean;
  uid: number;
  gid: number;
  /** cgroup.procs files the command joins before it starts. */
  cgroupProcs: string[];
}

/** Why bubblewrap cannot run here, or null when it can (execution.md §1). */
export function sandboxProblem(): string | null {
  const r = spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', '--', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.error) return `bubblewrap is not available: ${r.error.message}`;
  if (r.status !== 0) return `bubblewrap cannot make a sandbox: ${(r.stderr || '').trim()}`;
  return null;
}

/** `User` of the image as uid and gid: numeric, `name`, `uid:gid`, looked up in /etc/passwd. */
export function userOf(root: string, user: string): { uid: number; gid: number } {
  if (user === '') return { uid: 0, gid: 0 };
  const [u = '', g] = user.split(':');
  let passwd: string[][] = [];
  try {
    passwd = readFileSync(join(root, 'etc/passwd'), 'utf8')
      .split('\n')
      .map((l) => l.split(':'));
  } catch {
    /* no passwd file */
  }
  const entry = passwd.find((p) => p[0] === u || p[2] === u);
  const uid = /^\d+$/.test(u) ? Number(u) : Number(entry?.[2] ?? NaN);
  if (!Number.isFinite(uid)) throw new Error(`image user ${user} not found in /etc/passwd`);
  const gid = g !== undefined && /^\d+$/.test(g) ? Number(g) : Number(entry?.[3] ?? uid);
  return { uid, gid };
}

/** Every directory above a mount target (`/var/lib/x/in.json` → `/var`, `/var/lib`, `/var/lib/x`). */
function mountParents(mounts: readonly HostMount[]): Set<string> {
  const parents = new Set<string>();
  for (const m of mounts) {
    for (let p = posix.dirname(m.target); p !== '/'; p = posix.dirname(p)) parents.add(p);
  }
  return parents;
}

/**
 * The image's entries of one directory, read-only: each bound from the image, but a directory
 * holding a mount target, which is made anew in the sandbox's own root (a tmpfs, read-only in
 * the end) and filled the same way, so the mount point can be made inside it and the rest of
 * the image around it stays as it was (execution.md §3.3).
 */
function imageEntries(
  hostDir: string,
  sandboxDir: string,
  parents: ReadonlySet<string>,
  targets: ReadonlySet<string>,
): string[] {
  const args: string[] = [];
  for (const name of readdirSync(hostDir)) {
    if (sandboxDir === '/' && (name === 'proc' || name === 'dev')) continue;
    const host = join(hostDir, name);
    const at = posix.join(sandboxDir, name);
    if (targets.has(at)) continue; // the mount takes its place
    const st = lstatSync(host);
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(host), at);
    else if (st.isDirectory() && parents.has(at)) {
      args.push('--perms', (st.mode & 0o7777).toString(8), '--dir', at);
      args.push(...imageEntries(host, at, parents, targets));
    } else args.push('--ro-bind', host, at);
  }
  return args;
}

/**
 * The bubblewrap arguments: a tmpfs root holding the image's entries read-only (directories
 * above mount targets made anew, so mount points can be made anywhere), /proc, /dev, a private
 * /tmp, the mounts, then the root made read-only. Own process, IPC, mount (and network unless
 * API) namespaces.
 */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const args = ['--die-with-parent', '--unshare-all', '--new-session'];
  if (spec.network) args.push('--share-net');
  if (spec.uid !== 0 || spec.gid !== 0)
    args.push('--uid', String(spec.uid), '--gid', String(spec.gid));
  args.push('--tmpfs', '/');
  const targets = new Set(spec.mounts.map((m) => m.target));
  args.push(...imageEntries(spec.root, '/', mountParents(spec.mounts), targets));
  args.push('--proc', '/proc', '--dev', '/dev');
  if (!spec.mounts.some((m) => m.target === '/tmp')) args.push('--tmpfs', '/tmp');
  for (const m of spec.mounts) {
    args.push(m.writable ? '--bind' : '--ro-bind', m.host, m.target);
  }
  args.push('--remount-ro', '/');
  args.push('--chdir', spec.cwd, '--clearenv');
  for (const [k, v] of Object.entries(spec.env)) args.push('--setenv', k, v);
  args.push('--', ...spec.command);
  return args;
}

/**
 * Starts the command in the sandbox, inside the container's cgroups (a shell joins them,
 * then becomes bubblewrap), in a process group of its own.
 */
export function startSandbox(
  spec: SandboxSpec,
  stdio: { stdin: number | 'ignore'; stdout: number | 'pipe'; stderr: number | 'pipe' },
): ChildProcess {
  for (const m of spec.mounts)
    if (!m.writable) mkdirSync(posix.dirname(m.host), { recursive: true });
  const join = spec.cgroupProcs.map((f) => `echo $$ > '${f.replace(/'/g, '')}'`).join(' && ');
  const script = `${join ? `${join} && ` : ''}exec bwrap "$@"`;
  return spawn('/bin/sh', ['-c', script, 'sh', ...bwrapArgs(spec)], {
    stdio: [stdio.stdin, stdio.stdout, stdio.stderr],
    detached: true,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  });
}
