import { ConfigError, StartupError } from './errors';

interface Running {
  close(): Promise<void>;
}

/** Errors of the operating system worth one line of their own, by code. */
const SYSTEM_CAUSES: Record<string, string> = {
  EADDRINUSE: 'address in use',
  EACCES: 'permission denied',
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
};

/** One line naming the cause: a configuration or start-up error says it with its key. */
export function startupFailureLine(err: unknown): string {
  if (err instanceof ConfigError || err instanceof StartupError) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? SYSTEM_CAUSES[code] : undefined;
  const message = err instanceof Error ? err.message : String(err);
  return `failed to start: ${known ?? message.split('\n')[0]}`;
}

/**
 * The body of a server's `main`: starts it, and on SIGINT/SIGTERM closes it (the server drains
 * its in-flight requests within its own bound) and exits 0; a second signal exits at once. When
 * it cannot start: one line on stderr naming the cause, exit 1 (the stack only at debug level).
 */
export function runService(start: () => Promise<Running>): void {
  let stopping = false;
  let running: Running | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    if (!running) process.exit(0); // still starting: nothing acknowledged yet
    process.stderr.write(`${signal}: stopping (finishing requests in flight)\n`);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`stopping failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  start().then(
    (r) => {
      running = r;
    },
    (err: unknown) => {
      process.stderr.write(`${startupFailureLine(err)}\n`);
      if (process.env['SVC_LOG_LEVEL'] === 'debug')
        process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
