import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const LAUNCHER = join(__dirname, '..', '..', 'apps', 'launcher', 'dist', 'main.js');

/** The deployment as its own process (`pnpm start`), for tests that kill it. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export async function startServerProcess(configFile: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, [LAUNCHER], {
    env: { ...process.env, SVC_CONFIG: configFile, SVC_LOG_LEVEL: 'silent', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /svc is serving (http:\/\/\S+?)\/?\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    url,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
