import {
  checkSignature,
  EMPTY_BLOCK_HASH,
  hintOf,
  manifestBlockHashes,
  manifestLocators,
  parseLocator,
} from '@svc/blocks';
import { ForbiddenError } from '@svc/errors';
import type { Call } from '../../call';
import type { Db } from '../../db/db';
import { blockStoreOf } from '../../storage/block-store';
import { holdReferencesShared } from '../../storage/reference-lock';
import type { Row } from '../common/row';
import { parsedManifest } from './manifest-fields';
import { signingParams } from '../common/manifest-signing';

/** Blocks a write adds (named by the new manifest, not by the stored one). */
export const ADDED_BLOCKS = 'collections.addedBlocks';

/**
 * The first locator without a valid, unexpired signature for the request's token, or null.
 * With BlobSigning off, only a signature that is there and does not verify counts.
 */
function firstBadLocator(call: Call, manifest: string): string | null {
  const c = call.cluster.Collections;
  const token = call.caller.identity.token ?? '';
  const now = Math.floor(Date.now() / 1000);
  for (const locator of manifestLocators(manifest)) {
    if (locator.startsWith(EMPTY_BLOCK_HASH)) continue;
    const signed = hintOf(parseLocator(locator)!, 'A') !== null;
    if (!c.BlobSigning && !signed) continue;
    if (checkSignature(locator, token, now, signingParams(call.cluster)) !== 'ok') return locator;
  }
  return null;
}

/**
 * Runs after the permission checks and before any other validation (storage.md §5): the
 * manifest's syntax (422), then its signatures (403, admins exempt). Blocks the write adds are
 * restored from the trash before it answers, under the reference lock garbage collection
 * respects, and remembered for the replication fields.
 */
export async function checkManifestWrite(
  call: Call,
  tx: Db,
  attrs: Readonly<Record<string, unknown>>,
  current: Row | null,
): Promise<void> {
  const text = attrs['manifest_text'];
  if (typeof text !== 'string') return;
  const parsed = parsedManifest(text);
  const stored = typeof current?.['manifest_text'] === 'string' ? current['manifest_text'] : '';
  if (current !== null && parsed.stored === stored) return;
  if (!call.caller.isAdmin) {
    const bad = firstBadLocator(call, text);
    if (bad !== null) throw new ForbiddenError(`invalid signature on locator ${bad}`);
  }
  const before = manifestBlockHashes(stored);
  const added = [...manifestBlockHashes(parsed.stored)].filter(
    (h) => !before.has(h) && h !== EMPTY_BLOCK_HASH,
  );
  call.locals[ADDED_BLOCKS] = added;
  const store = blockStoreOf(call.cluster.ClusterID);
  if (added.length === 0 || !store) return;
  await holdReferencesShared(tx);
  for (const hash of added) await store.restore(hash);
}
