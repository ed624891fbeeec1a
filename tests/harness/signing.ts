import { mapManifestLocators, signLocator } from '@svc/blocks';
import { derivedBlobSigningKey } from '@svc/config';
import type { TestDeployment } from './deployment';

/** Signs a locator for `token` with the home cluster's (derived) key, as the server would. */
export function signFor(
  d: TestDeployment,
  token: string,
  locator: string,
  expires = Math.floor(Date.now() / 1000) + 3600,
): string {
  const c = d.config.Clusters[d.home.id]!.Collections;
  const key = c.BlobSigningKey || derivedBlobSigningKey(d.home.rootToken);
  return signLocator(locator, token, expires, { key, ttlSeconds: c.BlobSigningTTL });
}

/** Every locator of a manifest signed for `token`. */
export const signManifestFor = (d: TestDeployment, token: string, manifest: string): string =>
  mapManifestLocators(manifest, (l) => signFor(d, token, l));

/** The manifest with its permission hints removed (what is stored). */
export const unsigned = (manifest: string): string =>
  manifest.replace(/\+A[0-9a-f]{40}@[0-9a-f]{8}/g, '');
