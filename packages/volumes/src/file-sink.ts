import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Bytes gathered before one write: a 64 MiB block in 16 system calls, not a thousand. */
const GATHER_BYTES = 4 << 20;

async function writeAll(fh: FileHandle, chunks: Buffer[]): Promise<void> {
  let total = chunks.reduce((n, c) => n + c.length, 0);
  while (total > 0) {
    const { bytesWritten } = await fh.writev(chunks);
    total -= bytesWritten;
    if (total === 0) return;
    // A short write: go on from where it stopped.
    let skip = bytesWritten;
    while (skip >= chunks[0]!.length) skip -= chunks.shift()!.length;
    chunks[0] = chunks[0]!.subarray(skip);
  }
}

/**
 * Writes a stream into an open file and fsyncs it before the stream finishes, so "finished"
 * means "durable". Chunks (64 KiB from a socket) are gathered and written with one `writev`
 * per few MiB, without copying them. The caller closes the file.
 */
export function syncedFileSink(fh: FileHandle): Writable {
  let gathered: Buffer[] = [];
  let bytes = 0;
  const flush = (): Promise<void> => {
    const chunks = gathered;
    gathered = [];
    bytes = 0;
    return chunks.length === 0 ? Promise.resolve() : writeAll(fh, chunks);
  };
  return new Writable({
    highWaterMark: 1 << 20,
    write(chunk: Buffer, _enc, done) {
      gathered.push(chunk);
      bytes += chunk.length;
      if (bytes < GATHER_BYTES) return done();
      flush().then(() => done(), done);
    },
    final(done) {
      flush()
        .then(() => fh.sync())
        .then(() => done(), done);
    },
  });
}
