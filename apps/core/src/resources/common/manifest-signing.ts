import {
  EMPTY_BLOCK_HASH,
  mapManifestLocators,
  signLocator,
  type SigningParams,
} from '@svc/blocks';
import type { ClusterConfig } from '@svc/config';
import type { Call } from '../../call';

export const signingParams = (cluster: Readonly<ClusterConfig>): SigningParams => ({
  key: cluster.Collections.BlobSigningKey,
  ttlSeconds: cluster.Collections.BlobSigningTTL,
});

/**
 * A manifest as a response shows it (storage.md §5): every locator but the empty block signed
 * for the token the request presented, expiring at min(now + BlobSigningTTL, trash_at). Not
 * signed: an empty manifest, a trashed collection, a request without a token, BlobSigning off.
 */
export function signedManifest(call: Call, manifest: string, trashAt: unknown): string {
  const c = call.cluster.Collections;
  const token = call.caller.identity.token;
  if (!c.BlobSigning || !token || manifest === '') return manifest;
  const now = Date.now();
  const trashAtMs = typeof trashAt === 'string' ? Date.parse(trashAt) : Infinity;
  if (trashAtMs <= now) return manifest;
  const expires = Math.floor(Math.min(now + c.BlobSigningTTL * 1000, trashAtMs) / 1000);
  const params = signingParams(call.cluster);
  return mapManifestLocators(manifest, (locator) =>
    locator.startsWith(EMPTY_BLOCK_HASH) ? locator : signLocator(locator, token, expires, params),
  );
}
