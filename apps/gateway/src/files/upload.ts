import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_BLOCK_SIZE, type Segment } from '@svc/blocks';
import type { GatewayDeps } from '../gateway-deps';

interface Spool {
  path: string;
  fh: FileHandle;
  md5: ReturnType<typeof createHash>;
  size: number;
}

async function newSpool(): Promise<Spool> {
  const path = join(tmpdir(), `svc-upload-${randomBytes(8).toString('hex')}`);
  return { path, fh: await open(path, 'wx', 0o600), md5: createHash('md5'), size: 0 };
}

/** Stores one spooled block; answers its segment. */
async function storeSpool(deps: GatewayDeps, s: Spool): Promise<Segment> {
  await s.fh.close();
  try {
    const hash = s.md5.digest('hex');
    await deps.blocks.write(
      hash,
      createReadStream(s.path),
      s.size,
      deps.home.Collections.DefaultReplication,
    );
    return { locator: `${hash}+${s.size}`, offset: 0, length: s.size };
  } finally {
    await unlink(s.path).catch(() => undefined);
  }
}

/**
 * A request body as blocks of at most 64 MiB (storage.md §9): each block is spooled to a local
 * temporary file while hashed (bounded memory, no size limit but storage), then stored.
 */
export async function uploadBody(deps: GatewayDeps, body: Readable): Promise<Segment[]> {
  const segments: Segment[] = [];
  let spool = await newSpool();
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      let data = chunk;
      while (data.length > 0) {
        const take = data.subarray(0, MAX_BLOCK_SIZE - spool.size);
        for (let off = 0; off < take.length;)
          off += (await spool.fh.write(take, off, take.length - off)).bytesWritten;
        spool.md5.update(take);
        spool.size += take.length;
        data = data.subarray(take.length);
        if (spool.size === MAX_BLOCK_SIZE) {
          segments.push(await storeSpool(deps, spool));
          spool = await newSpool();
        }
      }
    }
    if (spool.size > 0) segments.push(await storeSpool(deps, spool));
    else await spool.fh.close();
  } finally {
    await unlink(spool.path).catch(() => undefined);
  }
  return segments;
}
