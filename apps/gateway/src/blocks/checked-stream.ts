import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes a stored copy through to the client while hashing it, holding back the last chunk
 * until the hash is known: on a mismatch the stream fails before the body is complete, so the
 * client sees a failed read, never a wrong body (storage.md §4).
 */
export class CheckedBlockStream extends Transform {
  private readonly md5: Hash = createHash('md5');
  private held: Buffer | null = null;

  constructor(
    private readonly expectedHash: string,
    private readonly onMismatch: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.md5.update(chunk);
    const previous = this.held;
    this.held = chunk;
    done(null, previous ?? undefined);
  }

  override _flush(done: TransformCallback): void {
    if (this.md5.digest('hex') !== this.expectedHash) {
      this.onMismatch();
      return done(new Error('checksum mismatch in stored data'));
    }
    done(null, this.held ?? undefined);
  }
}
