/** Why a block write or read failed; the block service maps each to its status (storage.md §4). */
export class BlockError extends Error {}

/** More than 64 MiB announced or received. */
export class BlockTooLargeError extends BlockError {
  constructor() {
    super('block too large');
  }
}

/** The body ended with a different number of bytes than announced. */
export class LengthMismatchError extends BlockError {
  constructor() {
    super('content length mismatch');
  }
}

/** The body's MD5 is not the one the locator names. */
export class HashMismatchError extends BlockError {
  constructor(readonly actual: string) {
    super(`content hash ${actual} does not match`);
  }
}

/** A volume that is full (ENOSPC, quota). */
export class VolumeFullError extends BlockError {}

/** A volume that could not be read or written. */
export class VolumeUnavailableError extends BlockError {
  constructor(
    readonly volumeId: string,
    cause: unknown,
  ) {
    super(`volume ${volumeId}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** The body was not the block: too large, cut short, or other bytes. */
export const isVerificationError = (err: unknown): boolean =>
  err instanceof BlockTooLargeError ||
  err instanceof LengthMismatchError ||
  err instanceof HashMismatchError;
