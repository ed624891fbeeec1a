import { spawn } from 'node:child_process';

/** A helper server (OIDC provider, LDAP directory) in a child process; it prints one JSON line when ready. */
export interface HelperProcess<T> {
  info: T;
  stop(): Promise<void>;
}

export async function startHelperProcess<T>(
  script: string,
  env: Record<string, string>,
): Promise<HelperProcess<T>> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    // HELPER_DEBUG=1 shows what the helper says, e.g. why it crashed.
    if (process.env['HELPER_DEBUG']) process.stderr.write(chunk);
  });
  const info = await new Promise<T>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(JSON.parse(line!) as T);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr}`)));
  });
  return {
    info,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
