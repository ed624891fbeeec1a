import { ConfigError } from './errors';

interface Running {
  close(): Promise<void>;
}

/**
 * The body of a server's `main`: starts it, closes it on SIGINT/SIGTERM, and exits 1 with one
 * line on stderr when it cannot start (a configuration error as its own message, naming the key).
 */
export function runService(start: () => Promise<Running>): void {
  start().then(
    (running) => {
      const stop = () => {
        running.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (err: unknown) => {
      const message =
        err instanceof ConfigError
          ? err.message
          : `failed to start: ${(err as Error).stack ?? String(err)}`;
      process.stderr.write(`${message}\n`);
      process.exit(1);
    },
  );
}
