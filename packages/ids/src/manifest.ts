import { createHash } from 'node:crypto';

/** The portable data hash of the empty collection. */
export const EMPTY_PDH = 'd41d8cd98f00b204e9800998ecf8427e+0';
export const PDH_RE = /^[0-9a-f]{32}\+[0-9]+$/;

/** Hints are `+`, an uppercase letter, then `[A-Za-z0-9@_-]*`. */
const LOCATOR_RE = /^[0-9a-f]{32}\+[0-9]+(\+[A-Z][A-Za-z0-9@_-]*)*$/;
/** What only a block locator can start with: a token like this that is not one is a bad locator. */
const LOCATOR_START_RE = /^[0-9a-f]{32}\+/;
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

/** Why a name with NUL (written `\000`) is refused: no file system can hold it. */
export const NUL_IN_NAME = 'file name contains NUL';

/** A name as meant: `\040` (space), `\134` (backslash) and any other `\ooo` decoded. */
const unescapeName = (name: string): string =>
  name.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/** Control characters are written as octal escapes, never as they are (docs/api/other-resources.md §1). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it matches
const RAW_CONTROL = /[\x00-\x1f\x7f]/;

/** A stream or file name as meant, after the checks every name passes. */
function decodedName(name: string, invalid: () => ManifestError): string {
  if (RAW_CONTROL.test(name)) throw invalid();
  const path = unescapeName(name);
  if (path.includes('\u0000')) throw new ManifestError(NUL_IN_NAME);
  return path;
}

function checkStreamName(name: string): void {
  if (name === '.') return;
  const path = decodedName(name, () => new ManifestError(`invalid stream name "${name}"`));
  if (!path.startsWith('./')) throw new ManifestError(`invalid stream name "${name}"`);
  for (const part of path.slice(2).split('/')) {
    if (part === '' || part === '.' || part === '..') {
      throw new ManifestError(`invalid stream name "${name}"`);
    }
  }
}

/**
 * A file name may contain `/` but has no empty or `..` component, and is `.` only as the whole
 * name of a zero-size entry (an empty directory): no file can name a path outside its collection.
 */
function checkFileName(line: number, name: string, size: number): void {
  const path = decodedName(
    name,
    () => new ManifestError(`line ${line}: invalid file name "${name}"`),
  );
  if (path === '.' && size === 0) return;
  for (const part of path.split('/')) {
    if (part === '' || part === '.' || part === '..') {
      throw new ManifestError(`line ${line}: invalid file name "${name}"`);
    }
  }
}

function readLocators(line: number, tokens: readonly string[]): string[] {
  const locators: string[] = [];
  for (const token of tokens.slice(1)) {
    if (LOCATOR_RE.test(token)) locators.push(token);
    else if (LOCATOR_START_RE.test(token)) {
      throw new ManifestError(`line ${line}: invalid block locator "${token}"`);
    } else break;
  }
  if (locators.length === 0) throw new ManifestError(`line ${line}: no block locator`);
  return locators;
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
    const locators = readLocators(n + 1, tokens);
    const fileTokens = tokens.slice(1 + locators.length);
    if (fileTokens.length === 0) throw new ManifestError(`line ${n + 1}: no file token`);
    for (const token of fileTokens) {
      const m = FILE_RE.exec(token);
      if (!m) throw new ManifestError(`line ${n + 1}: invalid file token "${token}"`);
      const size = Number(m[2]);
      checkFileName(n + 1, m[3]!, size);
      total += size;
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
