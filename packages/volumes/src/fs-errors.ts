import { BlockError, VolumeFullError, VolumeUnavailableError } from './errors';

export const errnoOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code;

export const isMissing = (err: unknown): boolean => errnoOf(err) === 'ENOENT';

/** Verification errors pass through; a full disk is "full"; anything else "unavailable". */
export function volumeError(volumeId: string, err: unknown): Error {
  if (err instanceof BlockError) return err;
  const code = errnoOf(err);
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new VolumeFullError(`volume ${volumeId} is full`);
  return new VolumeUnavailableError(volumeId, err);
}
