import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import {
  EMPTY_BLOCK_HASH,
  MAX_BLOCK_SIZE,
  parseLocator,
  signLocator,
  type Locator,
} from '@svc/blocks';
import {
  BlockTooLargeError,
  BlockVerifier,
  HashMismatchError,
  LengthMismatchError,
  VolumeFullError,
  VolumeUnavailableError,
} from '@svc/volumes';
import type { BlockStore } from '@svc/volumes';
import type { GatewayDeps } from '../gateway-deps';
import { putElsewhere } from './put-elsewhere';
import { authorizeWrite, blockToken } from './block-auth';
import { BlockHttpError, sendText } from './respond';
import type { WriteLimiter } from './write-limit';

const header = (req: Request, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

function desiredReplicas(req: Request, fallback: number): number {
  const raw = header(req, 'x-keep-desired-replicas');
  if (raw === undefined) return fallback;
  if (!/^\s*[0-9]+\s*$/.test(raw) || Number(raw) < 1)
    throw new BlockHttpError(400, 'invalid X-Keep-Desired-Replicas');
  return Number(raw);
}

function checkStorageClasses(req: Request): void {
  const raw = header(req, 'x-keep-storage-classes');
  if (raw === undefined) return;
  for (const name of raw.split(',').map((s) => s.trim())) {
    if (name !== '' && name !== 'default')
      throw new BlockHttpError(422, `unknown storage class ${name}`);
  }
}

/** The announced length, or null for a chunked body; 413 beyond 64 MiB. */
function announcedLength(req: Request): number | null {
  const raw = req.headers['content-length'];
  if (raw === undefined) return null;
  const n = Number(raw);
  if (n > MAX_BLOCK_SIZE) throw new BlockHttpError(413, 'block too large');
  return n;
}

const discard = () => new Writable({ write: (_c, _e, done) => done() });

/** Stores the body (the empty block is only verified: it is never stored). */
async function store(
  blocks: BlockStore,
  req: Request,
  locator: Locator,
  length: number | null,
  desired: number,
  path: string,
): Promise<{ size: number; replicas: number }> {
  try {
    if (locator.hash === EMPTY_BLOCK_HASH) {
      const verifier = new BlockVerifier(locator.hash, length);
      await pipeline(req, verifier, discard());
      return { size: 0, replicas: desired };
    }
    return await blocks.write(locator.hash, req, length, desired);
  } catch (err) {
    throw mapWriteError(err, path);
  }
}

/** `?cluster_id=`: null for this gateway's home cluster ("" counts as absent). */
function targetCluster(deps: GatewayDeps, req: Request): string | null {
  const raw = req.query['cluster_id'];
  const id = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof id === 'string' && id !== '' && id !== deps.home.ClusterID ? id : null;
}

export function mapWriteError(err: unknown, path: string): unknown {
  if (err instanceof BlockTooLargeError) return new BlockHttpError(413, 'block too large');
  if (err instanceof LengthMismatchError) return new BlockHttpError(400, 'content length mismatch');
  if (err instanceof HashMismatchError)
    return new BlockHttpError(422, `content hash ${err.actual} does not match locator ${path}`);
  if (err instanceof VolumeFullError) return new BlockHttpError(507, 'insufficient storage');
  if (err instanceof VolumeUnavailableError) return new BlockHttpError(503, 'volume unavailable');
  return err;
}

/** `PUT /<md5>` (storage.md §4), its checks in the contract's order. */
export async function putBlock(
  deps: GatewayDeps,
  limiter: WriteLimiter,
  req: Request,
  res: Response,
  path: string,
): Promise<void> {
  const locator = parseLocator(path);
  if (!locator) throw new BlockHttpError(400, 'invalid locator');
  const token = blockToken(req);
  const elsewhere = targetCluster(deps, req);
  if (elsewhere !== null) {
    return putElsewhere(deps, limiter, req, res, path, locator, elsewhere, token, {
      desired: (fallback) => {
        const n = desiredReplicas(req, fallback);
        checkStorageClasses(req);
        announcedLength(req);
        return n;
      },
      store: (blocks, desired) => store(blocks, req, locator, announcedLength(req), desired, path),
    });
  }
  await authorizeWrite(deps, token);
  const collections = deps.home.Collections;
  const desired = desiredReplicas(req, collections.DefaultReplication);
  checkStorageClasses(req);
  const length = announcedLength(req);
  const release = await limiter.acquire();
  let stored: { size: number; replicas: number };
  try {
    stored = await store(deps.blocks, req, locator, length, desired, path);
  } finally {
    release();
  }
  const bare = `${locator.hash}+${stored.size}`;
  const expires = Math.floor(Date.now() / 1000) + collections.BlobSigningTTL;
  const body = collections.BlobSigning
    ? signLocator(bare, token!, expires, {
        key: collections.BlobSigningKey,
        ttlSeconds: collections.BlobSigningTTL,
      })
    : bare;
  res.setHeader('X-Keep-Replicas-Stored', String(stored.replicas));
  res.setHeader('X-Keep-Storage-Classes-Confirmed', `default=${stored.replicas}`);
  sendText(res, 200, body);
}
