import type { Request } from 'express';
import { parseManifestTree, type DirNode } from '@svc/blocks';
import type { GatewayDeps } from '../gateway-deps';
import { FileHttpError } from './respond';
import type { SelfApi } from './self-api';
import type { FileTarget } from './target';
import { candidateTokens } from './tokens';

export interface OpenedCollection {
  token: string;
  /** The collection as the API answered it (uuid, portable_data_hash, modified_at …). */
  record: Record<string, unknown>;
  manifest: string;
  tree: DirNode;
}

const UNAUTHORIZED = { 'WWW-Authenticate': 'Basic realm="collections"' };

/**
 * The collection, read with the first token that can read it (storage.md §9). No token that
 * the cluster accepts → 401 with a Basic challenge; accepted tokens that cannot read it → 404.
 */
export async function openCollection(
  deps: GatewayDeps,
  api: SelfApi,
  req: Request,
  target: FileTarget,
): Promise<OpenedCollection> {
  let anyAccepted = false;
  for (const token of candidateTokens(deps, req, target)) {
    const res = await api.call(req, 'GET', `/svc/v1/collections/${target.id}`, token);
    if (res.status === 200) {
      const manifest = String(res.body['manifest_text'] ?? '');
      return { token, record: res.body, manifest, tree: parseManifestTree(manifest) };
    }
    // The cluster cannot answer now (database out, token over its limit): say so, not 404.
    if (res.status === 503 || res.status === 429) {
      const errors = res.body['errors'];
      const message = Array.isArray(errors) ? String(errors[0]) : 'Service unavailable';
      throw new FileHttpError(res.status, message, { 'Retry-After': '1' });
    }
    if (res.status !== 401) anyAccepted = true;
  }
  if (!anyAccepted) throw new FileHttpError(401, 'Not logged in', UNAUTHORIZED);
  throw new FileHttpError(404, 'collection not found');
}
