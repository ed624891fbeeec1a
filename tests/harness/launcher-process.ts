import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LAUNCHER = join(__dirname, '..', '..', 'apps', 'launcher', 'dist', 'main.js');

/** The launcher (`pnpm start` without the build) as a process, with everything it prints. */
export interface LauncherProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The gateway URL once it serves, or the exit if it never does. */
  serving: Promise<{ url: string } | { exit: number | null }>;
  exited: Promise<number | null>;
}

export function spawnLauncher(env: Record<string, string | undefined>): LauncherProcess {
  const child = spawn(process.execPath, [LAUNCHER], {
    env: { ...process.env, SVC_LOG_LEVEL: 'silent', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const serving = new Promise<{ url: string } | { exit: number | null }>((resolve) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /svc is serving (http:\/\/\S+?)\/?\n/.exec(out);
      if (m) resolve({ url: m[1]! });
    });
    void exited.then((exit) => resolve({ exit }));
  });
  return { child, stdout: () => out, stderr: () => err, serving, exited };
}

/** A configuration file of one cluster `home1` on `databaseUrl`, with extra keys merged in. */
export function writeConfig(
  databaseUrl: string,
  more: { gateway?: Record<string, unknown>; cluster?: Record<string, unknown> } = {},
): { file: string; rootToken: string } {
  const rootToken = 'launcherProcessTestRootToken000000000000';
  const doc = {
    Gateway: { Listen: '127.0.0.1:0', ...more.gateway },
    Clusters: {
      home1: {
        SystemRootToken: rootToken,
        Database: { URL: databaseUrl },
        Login: { Test: { Enable: true } },
        ...more.cluster,
      },
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'svc-launcher-')), 'svc.yml');
  writeFileSync(file, JSON.stringify(doc)); // JSON is YAML
  return { file, rootToken };
}

export async function servingUrl(p: LauncherProcess): Promise<string> {
  const s = await p.serving;
  if ('url' in s) return s.url;
  throw new Error(`launcher exited with ${s.exit}:\n${p.stdout()}\n${p.stderr()}`);
}
