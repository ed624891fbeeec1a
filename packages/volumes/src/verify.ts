import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { MAX_BLOCK_SIZE } from '@svc/blocks';
import { BlockTooLargeError, HashMismatchError, LengthMismatchError } from './errors';

/**
 * Passes a block through while counting and hashing it. Fails the stream (so that nothing is
 * committed under the block's name) when it grows past 64 MiB, ends with another length than
 * announced, or ends with another MD5 than expected; in that order.
 */
export class BlockVerifier extends Transform {
  private readonly md5: Hash = createHash('md5');
  bytes = 0;

  constructor(
    private readonly expectedHash: string,
    private readonly expectedLength: number | null,
    private readonly maxSize = MAX_BLOCK_SIZE,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxSize) return done(new BlockTooLargeError());
    this.md5.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.expectedLength !== null && this.bytes !== this.expectedLength)
      return done(new LengthMismatchError());
    const actual = this.md5.digest('hex');
    if (actual !== this.expectedHash) return done(new HashMismatchError(actual));
    done();
  }
}
