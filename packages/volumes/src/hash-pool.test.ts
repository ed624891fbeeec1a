import { createHash, randomBytes } from 'node:crypto';
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
});
