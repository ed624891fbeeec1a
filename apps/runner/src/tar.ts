/**
 * A minimal reader of tar archives (ustar, GNU long names, pax path/linkpath), enough for
 * image archives written by `docker save` / `podman save` and their layers. Pure: bytes in,
 * entries out.
 */
export interface TarEntry {
  /** Path inside the archive, without a leading `./` or `/`. */
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';
  mode: number;
  uid: number;
  gid: number;
  linkname: string;
  data: Buffer;
}

const text = (b: Buffer, start: number, len: number): string => {
  const raw = b.subarray(start, start + len);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? raw.length : nul).toString('utf8');
};

const octal = (b: Buffer, start: number, len: number): number => {
  const first = b[start] ?? 0;
  if (first & 0x80) {
    // base-256 (GNU) for large values
    let n = 0;
    for (let i = 1; i < len; i++) n = n * 256 + (b[start + i] ?? 0);
    return n;
  }
  const s = text(b, start, len).trim();
  return s === '' ? 0 : parseInt(s, 8);
};

const typeOf = (flag: string): TarEntry['type'] => {
  if (flag === '0' || flag === '' || flag === '7') return 'file';
  if (flag === '5') return 'dir';
  if (flag === '2') return 'symlink';
  if (flag === '1') return 'hardlink';
  return 'other';
};

/** pax extended header records: `<len> key=value\n`. */
function paxRecords(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const len = parseInt(data.subarray(at, space).toString('utf8'), 10);
    if (!Number.isFinite(len) || len <= 0) break;
    const record = data.subarray(space + 1, at + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += len;
  }
  return out;
}

export const normalizeTarPath = (p: string): string =>
  p.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '');

/** Every entry of an archive in order. Throws on a truncated archive. */
export function readTar(buf: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  let longName: string | null = null;
  let longLink: string | null = null;
  let pax: Record<string, string> = {};
  while (at + 512 <= buf.length) {
    const header = buf.subarray(at, at + 512);
    if (header.every((x) => x === 0)) break;
    const size = octal(header, 124, 12);
    const flag = String.fromCharCode(header[156] ?? 0).replace('\0', '');
    const dataStart = at + 512;
    if (dataStart + size > buf.length) throw new Error('truncated tar archive');
    const data = buf.subarray(dataStart, dataStart + size);
    at = dataStart + Math.ceil(size / 512) * 512;
    if (flag === 'L') {
      longName = text(data, 0, data.length);
      continue;
    }
    if (flag === 'K') {
      longLink = text(data, 0, data.length);
      continue;
    }
    if (flag === 'x') {
      pax = paxRecords(data);
      continue;
    }
    if (flag === 'g') continue;
    const magic = text(header, 257, 6);
    const prefix = magic.startsWith('ustar') ? text(header, 345, 155) : '';
    const name = text(header, 0, 100);
    const path = pax['path'] ?? longName ?? (prefix ? `${prefix}/${name}` : name);
    const linkname = pax['linkpath'] ?? longLink ?? text(header, 157, 100);
    entries.push({
      path: normalizeTarPath(path),
      type: typeOf(flag),
      mode: octal(header, 100, 8) & 0o7777,
      uid: octal(header, 108, 8),
      gid: octal(header, 116, 8),
      linkname,
      data,
    });
    longName = null;
    longLink = null;
    pax = {};
  }
  return entries;
}
