import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import {
  checkSignature,
  EMPTY_BLOCK_HASH,
  hintOf,
  parseLocator,
  remoteClusterOf,
  type Locator,
} from '@svc/blocks';
import type { GatewayDeps } from '../gateway-deps';
import { blockToken } from './block-auth';
import { CheckedBlockStream } from './checked-stream';
import { BlockHttpError } from './respond';
import { readOtherCluster } from './remote-read';
import type { WriteLimiter } from './write-limit';

/** Checks of a read, in the contract's order (storage.md §4); returns the parsed locator. */
function checkRead(deps: GatewayDeps, req: Request, path: string): Locator {
  const locator = parseLocator(path);
  if (!locator) throw new BlockHttpError(400, 'invalid locator');
  if (locator.size === null && req.method === 'GET')
    throw new BlockHttpError(405, 'method not allowed');
  if (locator.hash === EMPTY_BLOCK_HASH) return locator;
  const c = deps.home.Collections;
  if (!c.BlobSigning) return locator;
  const token = blockToken(req);
  if (!token) throw new BlockHttpError(401, 'Not logged in');
  const nowUnix = Math.floor(Date.now() / 1000);
  const verdict = checkSignature(path, token, nowUnix, {
    key: c.BlobSigningKey,
    ttlSeconds: c.BlobSigningTTL,
  });
  if (verdict !== 'ok') throw new BlockHttpError(403, verdict);
  return locator;
}

async function headBlock(deps: GatewayDeps, res: Response, locator: Locator): Promise<void> {
  const result = await deps.blocks.head(locator.hash, locator.size);
  if (result === 'not found') throw new BlockHttpError(404, 'block not found');
  if (result === 'corrupt') throw new BlockHttpError(502, 'checksum mismatch in stored data');
  res.status(200);
  res.setHeader('Content-Type', 'application/octet-stream');
  if (locator.size !== null) res.setHeader('Content-Length', String(locator.size));
  res.end();
}

/** `GET` and `HEAD /<locator>`: streamed from the first copy, hashed on the way. */
export async function getBlock(
  deps: GatewayDeps,
  limiter: WriteLimiter,
  req: Request,
  res: Response,
  path: string,
): Promise<void> {
  const parsed = parseLocator(path);
  const remote = parsed && hintOf(parsed, 'A') === null ? remoteClusterOf(path) : null;
  if (parsed && remote !== null && parsed.hash !== EMPTY_BLOCK_HASH) {
    if (parsed.size === null && req.method === 'GET')
      throw new BlockHttpError(405, 'method not allowed');
    return readOtherCluster(deps, limiter, req, res, path, parsed, remote);
  }
  const locator = checkRead(deps, req, path);
  if (locator.hash === EMPTY_BLOCK_HASH) {
    res.status(200).setHeader('Content-Length', '0');
    res.end();
    return;
  }
  if (req.method === 'HEAD') return headBlock(deps, res, locator);
  const size = locator.size!;
  const found = await deps.blocks.open(locator.hash, size);
  if (!found) throw new BlockHttpError(404, 'block not found');
  res.status(200);
  res.setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('Content-Length', String(size));
  const checked = new CheckedBlockStream(
    locator.hash,
    () => deps.blocks.reportCorrupt(found.volume, locator.hash),
    locator.size,
  );
  try {
    await pipeline(found.stream, checked, res);
  } catch {
    // The client already has the status line: the only honest signal left is a cut connection.
    res.destroy();
  }
}
