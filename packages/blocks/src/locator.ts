/**
 * Block locators (storage.md §1): `<md5>+<size>` followed by hints, each `+`, an uppercase
 * letter, then characters of `[A-Za-z0-9@_-]`.
 */

/** A block is at most 64 MiB. */
export const MAX_BLOCK_SIZE = 67_108_864;
export const EMPTY_BLOCK_HASH = 'd41d8cd98f00b204e9800998ecf8427e';
export const EMPTY_BLOCK_LOCATOR = `${EMPTY_BLOCK_HASH}+0`;

export const HASH_RE = /^[0-9a-f]{32}$/;
/** A full locator: hash, size, hints. */
export const LOCATOR_RE = /^[0-9a-f]{32}\+[0-9]+(\+[A-Z][A-Za-z0-9@_-]*)*$/;
/** What the block service accepts in a path: the size is optional there. */
const PATH_LOCATOR_RE = /^([0-9a-f]{32})(\+[0-9]+)?((?:\+[A-Z][A-Za-z0-9@_-]*)*)$/;

export interface Locator {
  hash: string;
  /** null when the locator (a block-service path) has no size. */
  size: number | null;
  /** Hints without their leading `+`, in order (`A…`, `R…`, others). */
  hints: string[];
}

/** Parses a locator whose size may be absent (`<md5>`, `<md5>+<size>`, then hints), or null. */
export function parseLocator(text: string): Locator | null {
  const m = PATH_LOCATOR_RE.exec(text);
  if (!m) return null;
  const size = m[2] === undefined ? null : Number(m[2].slice(1));
  if (size !== null && !Number.isSafeInteger(size)) return null;
  return { hash: m[1]!, size, hints: m[3] ? m[3].slice(1).split('+') : [] };
}

export function formatLocator(l: Locator): string {
  return [l.hash, ...(l.size === null ? [] : [String(l.size)]), ...l.hints].join('+');
}

export const isLocator = (text: string): boolean => LOCATOR_RE.test(text);

export const isEmptyBlock = (l: Pick<Locator, 'hash'>): boolean => l.hash === EMPTY_BLOCK_HASH;

/** `<md5>+<size>`, every hint removed. */
export const bareLocator = (l: Locator): string =>
  l.size === null ? l.hash : `${l.hash}+${l.size}`;

/** The locator with the hints `drop` selects removed (others kept in order). */
export function withoutHints(locator: string, drop: (hint: string) => boolean): string {
  const [hash, size, ...hints] = locator.split('+');
  return [hash, size, ...hints.filter((h) => !drop(h))].join('+');
}

/** The locator without its permission hints (`+A…`). */
export const stripSignature = (locator: string): string =>
  withoutHints(locator, (h) => h.startsWith('A'));

/** The first hint starting with `letter`, without the letter, or null. */
export function hintOf(l: Locator, letter: string): string | null {
  const hint = l.hints.find((h) => h.startsWith(letter));
  return hint === undefined ? null : hint.slice(1);
}
