import { LOCATOR_RE } from './locator';

/**
 * The block locators of a manifest, in order, as written (hints included). Tokens are
 * space-separated; the first of each line is the stream name, and file tokens
 * (`<pos>:<size>:<name>`) never look like locators, so every other token that matches the
 * locator pattern is one.
 */
export function* manifestLocators(manifest: string): Generator<string> {
  for (const line of manifest.split('\n')) {
    const tokens = line.split(' ');
    for (let i = 1; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (!LOCATOR_RE.test(t)) break;
      yield t;
    }
  }
}

const HASH_AFTER_SPACE = / ([0-9a-f]{32})\+[0-9]+/g;

/**
 * Calls `each` with the hash of every block a stored (valid) manifest names, repeats included.
 * A scan, no parsing: garbage collection reads every manifest of the cluster with it.
 */
export function forEachBlockHash(manifest: string, each: (hash: string) => void): void {
  HASH_AFTER_SPACE.lastIndex = 0;
  for (let m = HASH_AFTER_SPACE.exec(manifest); m; m = HASH_AFTER_SPACE.exec(manifest)) {
    each(m[1]!);
  }
}

/** The distinct block hashes a manifest names. */
export function manifestBlockHashes(manifest: string): Set<string> {
  const out = new Set<string>();
  forEachBlockHash(manifest, (h) => out.add(h));
  return out;
}

/** Applies `fn` to every locator of a manifest, keeping everything else byte for byte. */
export function mapManifestLocators(manifest: string, fn: (locator: string) => string): string {
  if (manifest === '') return manifest;
  return manifest
    .split('\n')
    .map((line) => {
      const tokens = line.split(' ');
      for (let i = 1; i < tokens.length && LOCATOR_RE.test(tokens[i]!); i++) {
        tokens[i] = fn(tokens[i]!);
      }
      return tokens.join(' ');
    })
    .join('\n');
}
