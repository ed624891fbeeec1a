import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The built `svc` executable, as `pnpm install` links it. */
export const SVC_BIN = join(__dirname, '../../apps/cli/bin/svc.js');

export interface SvcRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built command in a child process, asynchronously (the cluster it talks to runs in
 * the test's own process), with only the given environment and standard input.
 */
export function runSvc(
  args: string[],
  env: Record<string, string | undefined>,
  input?: string,
): Promise<SvcRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      env: { PATH: process.env['PATH'], ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
