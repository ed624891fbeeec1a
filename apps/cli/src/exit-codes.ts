import { ApiError } from '@svc/client';

/** Exit statuses scripts can rely on (also shown by `svc --help`). */
export const EXIT = {
  ok: 0,
  /** The server refused or failed the call (403, 5xx, …), or could not be reached. */
  failed: 1,
  /** Bad usage or input: unknown command, option or type, bad filter or JSON, server 400/422. */
  usage: 2,
  /** No such object (404). */
  notFound: 3,
  /** No host or token configured, or the token was refused (401). */
  notLoggedIn: 4,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  the server refused or failed the call (403, 5xx, ...), or could not be reached
  2  bad usage or input: unknown command, option or type, bad filter or JSON, 400/422 answers
  3  not found (404)
  4  not logged in: no host or token configured, or the token was refused (401)`;

/** A failure the command itself detected, with the status it exits with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
export const notLoggedIn = (message: string) => new CliError(message, EXIT.notLoggedIn);

/** The exit status of a refused API call. */
export function exitCodeOfStatus(status: number): number {
  if (status === 401) return EXIT.notLoggedIn;
  if (status === 404) return EXIT.notFound;
  if (status === 400 || status === 413 || status === 422) return EXIT.usage;
  return EXIT.failed;
}

/** The message and exit status of anything a command threw. */
export function describeFailure(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof ApiError) {
    const id = err.requestId ? ` (request ${err.requestId})` : '';
    return {
      message: `${err.status}: ${err.errors.join('; ')}${id}`,
      exitCode: exitCodeOfStatus(err.status),
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message, exitCode: EXIT.failed };
}
