/**
 * Writes small ustar archives (used by tests and tools that build image archives). Pure.
 */
export interface TarInput {
  path: string;
  type?: 'file' | 'dir' | 'symlink';
  mode?: number;
  data?: Buffer | string;
  linkname?: string;
}

function header(e: TarInput, size: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (s: string, at: number, len: number) => h.write(s, at, len, 'utf8');
  const oct = (n: number, at: number, len: number) =>
    put(n.toString(8).padStart(len - 1, '0') + '\0', at, len);
  const type = e.type ?? 'file';
  const name = type === 'dir' && !e.path.endsWith('/') ? `${e.path}/` : e.path;
  if (Buffer.byteLength(name) > 100) throw new Error(`tar path too long: ${name}`);
  put(name, 0, 100);
  oct(e.mode ?? (type === 'dir' ? 0o755 : 0o644), 100, 8);
  oct(0, 108, 8);
  oct(0, 116, 8);
  oct(size, 124, 12);
  oct(0, 136, 12);
  h.fill(0x20, 148, 156);
  put(type === 'dir' ? '5' : type === 'symlink' ? '2' : '0', 156, 1);
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
  for (const e of entries) {
    const data =
      e.type === 'file' || e.type === undefined ? Buffer.from(e.data ?? '') : Buffer.alloc(0);
    parts.push(header(e, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
