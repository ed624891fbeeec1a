/**
 * Blocks of other clusters (storage.md §7): a remote cluster's signature `+A<sig>@<exp>` reads
 * back through this gateway as `+R<cluster id>-<sig>@<exp>`, and turns back into `+A` when the
 * request goes to that cluster.
 */

const A_HINT = /\+A([0-9a-f]{40}@[0-9a-f]{8})(?=\+|$)/;

/** `+A<sig>@<exp>` → `+R<clusterId>-<sig>@<exp>` in one locator. */
export function toRemoteLocator(locator: string, clusterId: string): string {
  return locator.replace(A_HINT, `+R${clusterId}-$1`);
}

/** `+R<clusterId>-<sig>@<exp>` → `+A<sig>@<exp>` in one locator; other `+R` hints are kept. */
export function toLocalLocator(locator: string, clusterId: string): string {
  const re = new RegExp(`\\+R${clusterId}-([0-9a-f]{40}@[0-9a-f]{8})(?=\\+|$)`);
  return locator.replace(re, '+A$1');
}

/** The cluster id of a locator's `+R<id>-…` hint, or null. */
export function remoteClusterOf(locator: string): string | null {
  const m = /\+R([0-9a-z]{5})-/.exec(locator);
  return m ? m[1]! : null;
}

const mapTokens = (manifest: string, fn: (token: string) => string): string =>
  manifest.replace(/(?<=[ ])[0-9a-f]{32}\+[0-9]+(?:\+[A-Z][A-Za-z0-9@_-]*)*(?=[ \n])/g, fn);

/** Every `+A` of a manifest rewritten to `+R<clusterId>-` (a remote cluster's collection). */
export const toRemoteManifest = (manifest: string, clusterId: string): string =>
  mapTokens(manifest, (l) => toRemoteLocator(l, clusterId));

/** Every `+R<clusterId>-` of a manifest turned back into `+A` (forwarded to that cluster). */
export const toLocalManifest = (manifest: string, clusterId: string): string =>
  mapTokens(manifest, (l) => toLocalLocator(l, clusterId));
