import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  for (let off = 0; off < buf.length;) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    off += bytesWritten;
  }
}

/**
 * Writes a stream into an open file and fsyncs it before the stream finishes, so "finished"
 * means "durable". The caller closes the file.
 */
export function syncedFileSink(fh: FileHandle): Writable {
  return new Writable({
    highWaterMark: 1 << 20,
    write(chunk: Buffer, _enc, done) {
      writeAll(fh, chunk).then(() => done(), done);
    },
    // Chunks that queued up while the disk was busy go down in one system call.
    writev(chunks, done) {
      writeAll(fh, Buffer.concat(chunks.map((c) => c.chunk as Buffer))).then(() => done(), done);
    },
    final(done) {
      fh.sync().then(() => done(), done);
    },
  });
}
