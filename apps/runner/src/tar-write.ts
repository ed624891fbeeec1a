/**
 * Writes small ustar archives (used by tests and tools that build image archives). Pure.
 */
export interface TarInput {
  path: string;
  type?: 'file' | 'dir' | 'symlink' | 'hardlink';
  mode?: number;
  data?: Buffer | string;
  linkname?: string;
}

const TYPE_FLAGS = {
  file: '0',
  dir: '5',
  symlink: '2',
  hardlink: '1',
  longName: 'L',
  longLink: 'K',
} as const;
type HeaderType = keyof typeof TYPE_FLAGS;

const nameOf = (e: TarInput): string =>
  e.type === 'dir' && !e.path.endsWith('/') ? `${e.path}/` : e.path;

/** One 512-byte ustar header; `name` is cut at the field's 100 bytes (see writeTar). */
function header(name: string, type: HeaderType, e: TarInput, size: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (s: string, at: number, len: number) => h.write(s, at, len, 'utf8');
  const oct = (n: number, at: number, len: number) =>
    put(n.toString(8).padStart(len - 1, '0') + '\0', at, len);
  put(name, 0, 100);
  oct(e.mode ?? (type === 'dir' ? 0o755 : 0o644), 100, 8);
  oct(0, 108, 8);
  oct(0, 116, 8);
  oct(size, 124, 12);
  oct(0, 136, 12);
  h.fill(0x20, 148, 156);
  put(TYPE_FLAGS[type], 156, 1);
  put(e.linkname ?? '', 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

/** A tar archive of the entries, in order. */
export function writeTar(entries: TarInput[]): Buffer {
  const parts: Buffer[] = [];
  const put = (h: Buffer, data: Buffer) =>
    parts.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  for (const e of entries) {
    const type = e.type ?? 'file';
    const data = type === 'file' ? Buffer.from(e.data ?? '') : Buffer.alloc(0);
    const name = nameOf(e);
    // a name or link past the header's 100 bytes goes first, whole, in a GNU long entry
    const long = (kind: 'longName' | 'longLink', value: string) => {
      if (Buffer.byteLength(value) <= 100) return;
      const whole = Buffer.from(`${value}\0`);
      put(header('././@LongLink', kind, { path: '' }, whole.length), whole);
    };
    long('longName', name);
    long('longLink', e.linkname ?? '');
    put(header(name, type, e, data.length), data);
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
