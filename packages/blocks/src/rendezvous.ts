import { createHash } from 'node:crypto';

/**
 * Rendezvous (highest random weight) order (storage.md §4, §8): sort by
 * `md5hex(<block hash> + <key>)`, largest first. Every writer and reader computes the same
 * order, so a block is looked for first where it was written first.
 */
export function rendezvousOrder<T>(
  hash: string,
  items: readonly T[],
  keyOf: (t: T) => string,
): T[] {
  const weighted = items.map((item) => ({
    item,
    weight: createHash('md5')
      .update(hash + keyOf(item), 'utf8')
      .digest('hex'),
  }));
  weighted.sort((a, b) => (a.weight < b.weight ? 1 : a.weight > b.weight ? -1 : 0));
  return weighted.map((w) => w.item);
}

/** The key of a block service uuid: its last 15 characters (storage.md §8). */
export const serviceKey = (uuid: string): string => uuid.slice(-15);
