import { createHash } from 'node:crypto';

/** The portable data hash of the empty collection. */
export const EMPTY_PDH = 'd41d8cd98f00b204e9800998ecf8427e+0';
export const PDH_RE = /^[0-9a-f]{32}\+[0-9]+$/;

const LOCATOR_RE = /^[0-9a-f]{32}\+[0-9]+(\+[A-Z][A-Za-z0-9@_-]*)*$/;
const FILE_RE = /^([0-9]+):([0-9]+):(.+)$/;

export interface ParsedManifest {
  /** The manifest as stored: permission hints (`+A…`) removed. */
  stored: string;
  /** Every locator reduced to `<hash>+<size>`. */
  portable: string;
  fileCount: number;
  fileSizeTotal: number;
}

export class ManifestError extends Error {}

function checkStreamName(name: string): void {
  if (name === '.') return;
  if (!name.startsWith('./')) throw new ManifestError(`invalid stream name "${name}"`);
  for (const part of name.slice(2).split('/')) {
    if (part === '' || part === '.' || part === '..') {
      throw new ManifestError(`invalid stream name "${name}"`);
    }
  }
}

const withoutHints = (locator: string, keep: (hint: string) => boolean): string => {
  const [hash, size, ...hints] = locator.split('+');
  return [hash, size, ...hints.filter(keep)].join('+');
};

/** Parses a manifest (other-resources.md §1), or throws a ManifestError saying what is wrong. */
export function parseManifest(text: string): ParsedManifest {
  if (text === '') return { stored: '', portable: '', fileCount: 0, fileSizeTotal: 0 };
  if (!text.endsWith('\n')) throw new ManifestError('manifest does not end with a newline');
  const stored: string[] = [];
  const portable: string[] = [];
  const files = new Set<string>();
  let total = 0;
  for (const [n, line] of text.slice(0, -1).split('\n').entries()) {
    const tokens = line.split(' ');
    const stream = tokens[0] ?? '';
    checkStreamName(stream);
    let i = 1;
    const locators: string[] = [];
    while (i < tokens.length && LOCATOR_RE.test(tokens[i]!)) locators.push(tokens[i++]!);
    if (locators.length === 0) throw new ManifestError(`line ${n + 1}: no block locator`);
    const fileTokens = tokens.slice(i);
    if (fileTokens.length === 0) throw new ManifestError(`line ${n + 1}: no file token`);
    for (const token of fileTokens) {
      const m = FILE_RE.exec(token);
      if (!m) throw new ManifestError(`line ${n + 1}: invalid file token "${token}"`);
      total += Number(m[2]);
      files.add(`${stream}\u0000${m[3]}`);
    }
    stored.push(
      [
        stream,
        ...locators.map((l) => withoutHints(l, (h) => !h.startsWith('A'))),
        ...fileTokens,
      ].join(' '),
    );
    portable.push(
      [stream, ...locators.map((l) => withoutHints(l, () => false)), ...fileTokens].join(' '),
    );
  }
  return {
    stored: stored.join('\n') + '\n',
    portable: portable.join('\n') + '\n',
    fileCount: files.size,
    fileSizeTotal: total,
  };
}

/** md5 of the portable manifest, `+`, its length in bytes. */
export function portableDataHash(portableManifest: string): string {
  const md5 = createHash('md5').update(portableManifest, 'utf8').digest('hex');
  return `${md5}+${Buffer.byteLength(portableManifest, 'utf8')}`;
}
