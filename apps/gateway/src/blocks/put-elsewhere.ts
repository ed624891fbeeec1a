import type { Request, Response } from 'express';
import { signLocator, toRemoteLocator, type Locator } from '@svc/blocks';
import type { BlockStore } from '@svc/volumes';
import type { GatewayDeps } from '../gateway-deps';
import { authorizeWrite } from './block-auth';
import { BlockHttpError, sendText } from './respond';
import type { WriteLimiter } from './write-limit';

/** The headers a forwarded PUT carries on (the token goes salted, in its own header). */
const FORWARDED = ['content-length', 'x-keep-desired-replicas', 'x-keep-storage-classes'];

export interface WriteChecks {
  desired: (fallback: number) => number;
  store: (store: BlockStore, desired: number) => Promise<{ size: number; replicas: number }>;
}

function reply(res: Response, located: string, replicas: string): void {
  res.setHeader('X-Keep-Replicas-Stored', replicas);
  res.setHeader('X-Keep-Storage-Classes-Confirmed', `default=${replicas}`);
  sendText(res, 200, located);
}

/** A sibling of this deployment: its volumes, its key, the token as it receives it. */
async function putOnSibling(
  deps: GatewayDeps,
  limiter: WriteLimiter,
  res: Response,
  locator: Locator,
  cluster: string,
  salted: string,
  checks: WriteChecks,
): Promise<void> {
  await authorizeWrite(deps, salted, cluster);
  const c = deps.config.Clusters[cluster]!.Collections;
  const desired = checks.desired(c.DefaultReplication);
  const release = await limiter.acquire();
  let stored: { size: number; replicas: number };
  try {
    stored = await checks.store(deps.otherClusters.store(cluster), desired);
  } finally {
    release();
  }
  const bare = `${locator.hash}+${stored.size}`;
  const expires = Math.floor(Date.now() / 1000) + c.BlobSigningTTL;
  const signed = c.BlobSigning
    ? signLocator(bare, salted, expires, { key: c.BlobSigningKey, ttlSeconds: c.BlobSigningTTL })
    : bare;
  reply(res, toRemoteLocator(signed, cluster), String(stored.replicas));
}

/**
 * `PUT /<md5>?cluster_id=<id>` of another cluster (storage.md §4): stored there with the token
 * salted for it, answered with its locator's `+A` as `+R<id>-` so that it reads back here.
 */
export async function putElsewhere(
  deps: GatewayDeps,
  limiter: WriteLimiter,
  req: Request,
  res: Response,
  path: string,
  locator: Locator,
  cluster: string,
  token: string | null,
  checks: WriteChecks,
): Promise<void> {
  deps.otherClusters.checkRoutable(cluster);
  if (!token) throw new BlockHttpError(401, 'Not logged in');
  const salted = await deps.otherClusters.salted(cluster, token);
  if (deps.otherClusters.isSibling(cluster)) {
    return putOnSibling(deps, limiter, res, locator, cluster, salted, checks);
  }
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  const answer = await deps.otherClusters.send(cluster, 'PUT', `/${path}`, salted, {
    headers,
    body: req,
  });
  const text = (await answer.body.text()).trim();
  if (answer.statusCode !== 200) throw new BlockHttpError(answer.statusCode, text);
  const replicas = answer.headers['x-keep-replicas-stored'];
  reply(res, toRemoteLocator(text, cluster), typeof replicas === 'string' ? replicas : '0');
}
