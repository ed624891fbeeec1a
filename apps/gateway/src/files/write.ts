import type { Request, Response } from 'express';
import {
  cloneNode,
  dirAt,
  mapManifestLocators,
  nodeAt,
  serializeManifestTree,
  signLocator,
  EMPTY_BLOCK_HASH,
  type DirNode,
  type Segment,
} from '@svc/blocks';
import type { GatewayDeps } from '../gateway-deps';
import { withCollectionLock } from './collection-lock';
import { openCollection, type OpenedCollection } from './resolve';
import { FileHttpError } from './respond';
import type { SelfApi } from './self-api';
import { parseTarget, type FileTarget } from './target';
import { uploadBody } from './upload';

/** A change of the tree; answers the status to send (201 created, 204 replaced/removed). */
type Change = (tree: DirNode) => number;

function parentOf(tree: DirNode, path: readonly string[], create: boolean): DirNode {
  if (path.length === 0) throw new FileHttpError(405, 'method not allowed');
  const parent = dirAt(tree, path.slice(0, -1), create);
  if (!parent)
    throw new FileHttpError(create ? 409 : 404, create ? 'a file is in the way' : 'file not found');
  return parent;
}

/** Every locator signed for the token (the API refuses unsigned ones from non-admins). */
function signedManifest(deps: GatewayDeps, token: string, manifest: string): string {
  const c = deps.home.Collections;
  if (!c.BlobSigning) return manifest;
  const expires = Math.floor(Date.now() / 1000) + 3600;
  const params = { key: c.BlobSigningKey, ttlSeconds: c.BlobSigningTTL };
  return mapManifestLocators(manifest, (l) =>
    l.startsWith(EMPTY_BLOCK_HASH) ? l : signLocator(l, token, expires, params),
  );
}

/**
 * One write (storage.md §9): under the collection's lock, read its latest manifest, apply the
 * change, save it as one update through the API (which applies every rule; a failure leaves
 * the collection unchanged).
 */
async function applyChange(
  deps: GatewayDeps,
  api: SelfApi,
  req: Request,
  target: FileTarget,
  change: Change,
): Promise<number> {
  const first = await openCollection(deps, api, req, target);
  if (target.isPdh) throw new FileHttpError(405, 'read-only collection');
  const uuid = String(first.record['uuid']);
  return withCollectionLock(uuid, async () => {
    const latest: OpenedCollection = await openCollection(deps, api, req, target);
    const status = change(latest.tree);
    const manifest = signedManifest(deps, latest.token, serializeManifestTree(latest.tree));
    const res = await api.call(req, 'PUT', `/svc/v1/collections/${uuid}`, latest.token, {
      collection: { manifest_text: manifest },
    });
    if (res.status !== 200) {
      const errors = res.body['errors'];
      throw new FileHttpError(
        res.status,
        Array.isArray(errors) ? errors.join('; ') : 'update failed',
        res.status === 503 || res.status === 429 ? { 'Retry-After': '1' } : {},
      );
    }
    return status;
  });
}

const putFile =
  (path: string[], segments: Segment[]): Change =>
  (tree) => {
    const parent = parentOf(tree, path, true);
    const name = path[path.length - 1]!;
    const existing = parent.children.get(name);
    if (existing?.kind === 'dir') throw new FileHttpError(405, 'a directory is there');
    const size = segments.reduce((n, s) => n + s.length, 0);
    parent.children.set(name, { kind: 'file', segments, size });
    return existing ? 204 : 201;
  };

const remove =
  (path: string[]): Change =>
  (tree) => {
    const parent = parentOf(tree, path, false);
    if (!parent.children.delete(path[path.length - 1]!))
      throw new FileHttpError(404, 'file not found');
    return 204;
  };

const mkcol =
  (path: string[]): Change =>
  (tree) => {
    if (nodeAt(tree, path)) throw new FileHttpError(405, 'already exists');
    parentOf(tree, path, true).children.set(path[path.length - 1]!, {
      kind: 'dir',
      children: new Map(),
    });
    return 201;
  };

/** The destination path of MOVE/COPY: within the same collection, else 400. */
function destinationOf(req: Request, target: FileTarget): { path: string[]; overwrite: boolean } {
  const header = req.headers['destination'];
  if (typeof header !== 'string')
    throw new FileHttpError(400, 'destination must be in the same collection');
  const dest = parseTarget(new URL(header, 'http://x').pathname);
  if (dest.id !== target.id || dest.path.length === 0)
    throw new FileHttpError(400, 'destination must be in the same collection');
  return { path: dest.path, overwrite: req.headers['overwrite'] !== 'F' };
}

const moveOrCopy =
  (from: string[], to: string[], overwrite: boolean, keepSource: boolean): Change =>
  (tree) => {
    const node = nodeAt(tree, from);
    if (!node || from.length === 0) throw new FileHttpError(404, 'file not found');
    if (to.join('/').startsWith(`${from.join('/')}/`))
      throw new FileHttpError(400, 'destination is inside the source');
    const parent = parentOf(tree, to, true);
    const name = to[to.length - 1]!;
    const existed = parent.children.has(name);
    if (existed && !overwrite) throw new FileHttpError(412, 'destination exists');
    if (!keepSource) parentOf(tree, from, false).children.delete(from[from.length - 1]!);
    parent.children.set(name, keepSource ? cloneNode(node) : node);
    return existed ? 204 : 201;
  };

/** PUT, DELETE, MKCOL, MOVE and COPY (storage.md §9). */
export async function writePath(
  deps: GatewayDeps,
  api: SelfApi,
  req: Request,
  res: Response,
  target: FileTarget,
): Promise<void> {
  let change: Change;
  if (req.method === 'PUT') {
    if (target.path.length === 0) throw new FileHttpError(405, 'method not allowed');
    // Readable and writable first, so that nobody fills volumes for a collection they cannot save.
    await openCollection(deps, api, req, target);
    if (target.isPdh) throw new FileHttpError(405, 'read-only collection');
    change = putFile(target.path, await uploadBody(deps, req));
  } else if (req.method === 'DELETE') change = remove(target.path);
  else if (req.method === 'MKCOL') change = mkcol(target.path);
  else {
    const dest = destinationOf(req, target);
    change = moveOrCopy(target.path, dest.path, dest.overwrite, req.method === 'COPY');
  }
  const status = await applyChange(deps, api, req, target, change);
  res.status(status).setHeader('Content-Length', '0');
  res.end();
}
