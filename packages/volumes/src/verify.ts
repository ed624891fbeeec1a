import { Transform, type TransformCallback } from 'node:stream';
import { MAX_BLOCK_SIZE } from '@svc/blocks';
import { BlockTooLargeError, HashMismatchError, LengthMismatchError } from './errors';
import { blockHash, type BlockHash } from './hash-pool';

/**
 * Passes a block through while counting and hashing it. Fails the stream (so that nothing is
 * committed under the block's name) when it grows past 64 MiB, ends with another length than
 * announced, or ends with another MD5 than expected; in that order. Large blocks are hashed by
 * a worker thread while their bytes move on (hash-pool.ts).
 */
export class BlockVerifier extends Transform {
  private readonly md5: BlockHash;
  bytes = 0;

  constructor(
    private readonly expectedHash: string,
    private readonly expectedLength: number | null,
    private readonly maxSize = MAX_BLOCK_SIZE,
  ) {
    super();
    this.md5 = blockHash(expectedLength);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxSize) return done(new BlockTooLargeError());
    const wait = this.md5.update(chunk);
    if (wait) wait.then(() => done(null, chunk), done);
    else done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.expectedLength !== null && this.bytes !== this.expectedLength) {
      this.md5.abort();
      return done(new LengthMismatchError());
    }
    this.md5.digest().then((actual) => {
      if (actual !== this.expectedHash) return done(new HashMismatchError(actual));
      done();
    }, done);
  }

  override _destroy(err: Error | null, done: (error: Error | null) => void): void {
    this.md5.abort();
    done(err);
  }
}
