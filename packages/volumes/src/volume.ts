import type { Readable } from 'node:stream';

/** A live copy of a block in a volume. */
export interface StoredBlock {
  hash: string;
  size: number;
  /** Modification time, Unix nanoseconds (the volume's resolution). */
  mtimeNs: bigint;
}

/** A copy in a volume's trash. */
export interface TrashedBlock {
  hash: string;
  /** When it was moved to the trash, Unix milliseconds. */
  trashedAtMs: number;
}

export interface PutOptions {
  /** The announced length (Content-Length), or null for chunked bodies. */
  expectedLength: number | null;
}

/**
 * Where blocks are kept (storage.md §3). A block is named by its MD5; a write is verified while
 * it streams and becomes visible under its name only when complete and durable; nothing partial
 * is ever under a block's name.
 */
export interface Volume {
  readonly id: string;
  readonly driver: 'Directory' | 'S3';
  readonly readOnly: boolean;
  /** Copies one stored block counts for. */
  readonly replication: number;
  /** Throws when the volume cannot be reached (start-up check). */
  check(): Promise<void>;
  /**
   * Streams `body` in, verifying size and MD5 (BlockTooLarge, LengthMismatch, HashMismatch),
   * then makes it durable under its name. Returns the block's size.
   */
  put(hash: string, body: Readable, opts: PutOptions): Promise<number>;
  /** The stored copy's bytes (or bytes `start`..`end` inclusive), or null when there is none. */
  get(hash: string, range?: ByteRange): Promise<Readable | null>;
  stat(hash: string): Promise<StoredBlock | null>;
  /** Refreshes the modification time of a live copy; false when there is none. */
  touch(hash: string): Promise<boolean>;
  /** Moves a live copy to the trash if its modification time is still `ifMtimeNs`. */
  trash(hash: string, ifMtimeNs: bigint): Promise<boolean>;
  /** Moves a trashed copy back (modification time now); false when none is in the trash. */
  untrash(hash: string): Promise<boolean>;
  /** Deletes a trashed copy for good. */
  deleteTrashed(hash: string): Promise<void>;
  /** Every live copy whose hash starts with `prefix`. */
  index(prefix?: string): AsyncIterable<StoredBlock>;
  trashIndex(): AsyncIterable<TrashedBlock>;
  close(): Promise<void>;
}

/** Bytes `start` to `end`, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a volume uses as "now" (tests move it). */
export type Clock = () => number;
