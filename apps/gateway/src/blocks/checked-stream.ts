import { Transform, type TransformCallback } from 'node:stream';
import { blockHash, type BlockHash } from '@svc/volumes';

/**
 * Passes a stored copy through to the client while hashing it (off the event loop for large
 * blocks), holding back the last chunk until the hash is known: on a mismatch the stream fails
 * before the body is complete, so the client sees a failed read, never a wrong body
 * (storage.md §4).
 */
export class CheckedBlockStream extends Transform {
  private readonly md5: BlockHash;
  private held: Buffer | null = null;

  constructor(
    private readonly expectedHash: string,
    private readonly onMismatch: () => void,
    size: number | null = null,
  ) {
    super();
    this.md5 = blockHash(size);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const wait = this.md5.update(chunk);
    const previous = this.held;
    this.held = chunk;
    if (wait) wait.then(() => done(null, previous ?? undefined), done);
    else done(null, previous ?? undefined);
  }

  override _flush(done: TransformCallback): void {
    this.md5.digest().then((actual) => {
      if (actual !== this.expectedHash) {
        this.onMismatch();
        return done(new Error('checksum mismatch in stored data'));
      }
      done(null, this.held ?? undefined);
    }, done);
  }

  override _destroy(err: Error | null, done: (error: Error | null) => void): void {
    this.md5.abort();
    done(err);
  }
}
