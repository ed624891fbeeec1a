import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { blockHash } from './hash-pool';

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('blockHash', () => {
  it('gives the MD5 of a large block fed in 64 KiB chunks (worker), several blocks at once', async () => {
    const blocks = [randomBytes(20 << 20), randomBytes((3 << 20) + 17), randomBytes(5)];
    const digests = await Promise.all(
      blocks.map(async (b) => {
        const h = blockHash(null);
        for (let at = 0; at < b.length; at += 65536) {
          await h.update(b.subarray(at, at + 65536));
        }
        return h.digest();
      }),
    );
    expect(digests).toEqual(blocks.map(md5));
  });

  it('gives the MD5 of one chunk larger than a batch and of odd chunk sizes', async () => {
    const b = randomBytes(37 << 20);
    const h = blockHash(b.length);
    // One chunk of 20 MiB (more than the worker may have pending), then sizes that never align.
    await h.update(b.subarray(0, 20 << 20));
    let at = 20 << 20;
    for (let n = 1; at < b.length; n = (n * 7919 + 1) % 3_000_001) {
      await h.update(b.subarray(at, at + n));
      at += n;
    }
    expect(await h.digest()).toBe(md5(b));
  });

  it('hashes small blocks inline, and an abandoned block leaves nothing behind', async () => {
    const small = blockHash(10);
    expect(small.update(Buffer.from('0123456789'))).toBeNull();
    expect(await small.digest()).toBe(md5(Buffer.from('0123456789')));
    const dropped = blockHash(null);
    dropped.update(randomBytes(2 << 20));
    dropped.abort();
    const next = blockHash(null);
    next.update(Buffer.from('abc'));
    expect(await next.digest()).toBe(md5(Buffer.from('abc')));
  });

  it('keeps a process alive while it hashes, and not after (an idle pool is unreferenced)', async () => {
    // The built module, in a process of its own: it must end by itself after hashing.
    const dist = join(__dirname, '..', 'dist', 'hash-pool.js');
    const script = `
      const { blockHash } = require(${JSON.stringify(dist)});
      const h = blockHash(null);
      Promise.resolve(h.update(Buffer.alloc(2 << 20, 7))).then(() => h.digest())
        .then((hex) => process.stdout.write(hex));`;
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, ['-e', script], { timeout: 20_000 }, (err, stdout) =>
        resolve({ code: err ? (child.exitCode ?? -1) : 0, stdout }),
      );
    });
    expect(out).toEqual({ code: 0, stdout: md5(Buffer.alloc(2 << 20, 7)) });
  }, 30_000);
});
