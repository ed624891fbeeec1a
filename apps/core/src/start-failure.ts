import { StartupError } from '@svc/config';
import { DirectoryInUseError } from './db/dir-lock';
import { MigrationChecksumError } from './db/migrate';

/** Causes worth their own words, by Node or PostgreSQL error code. */
const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
};

/** The one line that says why a database could not be used at start. */
export function databaseCause(err: unknown): string {
  if (err instanceof DirectoryInUseError || err instanceof MigrationChecksumError)
    return err.message;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && CAUSES[code]) return CAUSES[code];
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : String(err);
  return message.split('\n')[0]!;
}

/** Runs one start-up step; its failure becomes one line naming the key and the cause. */
export async function startStep<T>(
  key: string,
  step: () => Promise<T>,
  cause = databaseCause,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof StartupError) throw err;
    throw new StartupError(key, cause(err));
  }
}
