import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { signLocator, toLocalLocator, type Locator } from '@svc/blocks';
import type { GatewayDeps } from '../gateway-deps';
import { authorizeWrite, blockToken } from './block-auth';
import { CheckedBlockStream } from './checked-stream';
import { mapWriteError } from './put';
import { BlockHttpError } from './respond';
import type { WriteLimiter } from './write-limit';

/** `X-Keep-Signature: local, <time>`: the client wants a copy on this cluster. */
const wantsLocalCopy = (req: Request): boolean => {
  const raw = req.headers['x-keep-signature'];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return value.split(',')[0]!.trim() === 'local';
};

/**
 * `HEAD` with `X-Keep-Signature: local`: the block is read from its cluster, stored on this
 * one's volumes (hashed on the way), and named by a locator signed here (storage.md §7).
 */
async function copyHere(
  deps: GatewayDeps,
  limiter: WriteLimiter,
  res: Response,
  locator: Locator,
  token: string,
  stream: NodeJS.ReadableStream,
): Promise<void> {
  const release = await limiter.acquire();
  let size: number;
  try {
    const c = deps.home.Collections;
    ({ size } = await deps.blocks.write(
      locator.hash,
      stream as never,
      locator.size,
      c.DefaultReplication,
    ));
  } catch (err) {
    throw mapWriteError(err, locator.hash);
  } finally {
    release();
  }
  const c = deps.home.Collections;
  const bare = `${locator.hash}+${size}`;
  const expires = Math.floor(Date.now() / 1000) + c.BlobSigningTTL;
  res.setHeader(
    'X-Keep-Locator',
    c.BlobSigning
      ? signLocator(bare, token, expires, { key: c.BlobSigningKey, ttlSeconds: c.BlobSigningTTL })
      : bare,
  );
  res.status(200).setHeader('Content-Length', String(size));
  res.end();
}

/**
 * `GET`/`HEAD` of a locator with `+R<cluster>-` and no `+A` (storage.md §7): read from that
 * cluster with `+R<cluster>-` turned back into `+A` and the token salted for it, streamed
 * through and hashed on the way (a mismatch cuts the connection).
 */
export async function readOtherCluster(
  deps: GatewayDeps,
  limiter: WriteLimiter,
  req: Request,
  res: Response,
  path: string,
  locator: Locator,
  cluster: string,
): Promise<void> {
  deps.otherClusters.checkRoutable(cluster);
  const token = blockToken(req);
  if (!token) throw new BlockHttpError(401, 'Not logged in');
  const local = wantsLocalCopy(req) && req.method === 'HEAD';
  if (local) await authorizeWrite(deps, token);
  const salted = await deps.otherClusters.salted(cluster, token);
  const method = req.method === 'HEAD' && !local ? 'HEAD' : 'GET';
  const fetched = await deps.otherClusters.read(
    cluster,
    toLocalLocator(path, cluster),
    locator,
    salted,
    method,
  );
  if (local) return copyHere(deps, limiter, res, locator, token, fetched.stream!);
  res.status(200);
  res.setHeader('Content-Type', 'application/octet-stream');
  if (locator.size !== null) res.setHeader('Content-Length', String(locator.size));
  if (!fetched.stream) {
    res.end();
    return;
  }
  const checked = new CheckedBlockStream(
    locator.hash,
    () => deps.log.error({ cluster, block: locator.hash }, 'block from another cluster is corrupt'),
    locator.size,
  );
  try {
    await pipeline(fetched.stream, checked, res);
  } catch {
    res.destroy();
  }
}
