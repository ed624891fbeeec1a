import { createPublicKey } from 'node:crypto';

/**
 * SSH public keys in authorized_keys form (`[options] <type> <base64 blob>[ <comment>]`),
 * checked the way OpenSSH-compatible parsers do: the blob is decoded and read as the SSH wire
 * format of its own type, and the leading type field is not trusted. Neither sshpk nor ssh2
 * reads the security-key (`sk-…@openssh.com`) types, hence this reader.
 */

export const SUPPORTED_KEY_TYPES = [
  'ssh-rsa',
  'ssh-dss',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
] as const;

const CURVES: Record<string, { name: string; jwk: string; bytes: number }> = {
  'ecdsa-sha2-nistp256': { name: 'nistp256', jwk: 'P-256', bytes: 32 },
  'ecdsa-sha2-nistp384': { name: 'nistp384', jwk: 'P-384', bytes: 48 },
  'ecdsa-sha2-nistp521': { name: 'nistp521', jwk: 'P-521', bytes: 66 },
  'sk-ecdsa-sha2-nistp256@openssh.com': { name: 'nistp256', jwk: 'P-256', bytes: 32 },
};

/** Reads SSH wire-format strings (uint32 length, then bytes) off a buffer. */
class WireReader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}

  string(): Buffer {
    if (this.at + 4 > this.buf.length) throw new Error('short read');
    const n = this.buf.readUInt32BE(this.at);
    if (this.at + 4 + n > this.buf.length) throw new Error('short read');
    const out = this.buf.subarray(this.at + 4, this.at + 4 + n);
    this.at += 4 + n;
    return out;
  }

  done(): boolean {
    return this.at === this.buf.length;
  }
}

const b64url = (b: Buffer): string => b.toString('base64url');

/** An EC point on the named curve (uncompressed form), checked by the platform's crypto. */
function checkPoint(curve: { jwk: string; bytes: number }, point: Buffer): void {
  if (point.length !== 1 + 2 * curve.bytes || point[0] !== 4) throw new Error('bad point');
  const x = point.subarray(1, 1 + curve.bytes);
  const y = point.subarray(1 + curve.bytes);
  createPublicKey({
    key: { kty: 'EC', crv: curve.jwk, x: b64url(x), y: b64url(y) },
    format: 'jwk',
  });
}

/** The blob's key type if the blob is a well-formed key of a supported type, else null. */
export function blobKeyType(blob: Buffer): string | null {
  try {
    const r = new WireReader(blob);
    const type = r.string().toString('latin1');
    if (!(SUPPORTED_KEY_TYPES as readonly string[]).includes(type)) return null;
    if (type === 'ssh-rsa') {
      const [e, n] = [r.string(), r.string()];
      createPublicKey({ key: { kty: 'RSA', e: b64url(e), n: b64url(n) }, format: 'jwk' });
    } else if (type === 'ssh-dss') {
      for (let i = 0; i < 4; i++) if (r.string().length === 0) return null;
    } else if (type === 'ssh-ed25519' || type === 'sk-ssh-ed25519@openssh.com') {
      if (r.string().length !== 32) return null;
    } else {
      const curve = CURVES[type]!;
      if (r.string().toString('latin1') !== curve.name) return null;
      checkPoint(curve, r.string());
    }
    if (type.startsWith('sk-')) r.string(); // the security key's application
    return r.done() ? type : null;
  } catch {
    return null;
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `<base64 blob>[ <comment>]` after the type field: the key's type and blob, or null. */
function keyAfterType(rest: string): { type: string; blob: string } | null {
  const text = rest.trim();
  const blob = text.split(/[ \t]/)[0]!;
  if (blob === '' || !BASE64.test(blob)) return null;
  const type = blobKeyType(Buffer.from(blob, 'base64'));
  return type ? { type, blob } : null;
}

/** The options field (commas outside double quotes, ending at a blank outside them) is skipped. */
function afterOptions(line: string): string | null {
  let inQuote = false;
  let i = 0;
  for (; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"' && (i === 0 || line[i - 1] !== '\\')) inQuote = !inQuote;
    else if (!inQuote && (ch === ' ' || ch === '\t')) break;
  }
  const rest = line.slice(i).replace(/^[ \t]+/, '');
  return rest === '' ? null : rest;
}

/** Everything after the first blank-separated field, or null when there is none. */
function afterField(text: string): string | null {
  const i = text.search(/[ \t]/);
  return i === -1 ? null : text.slice(i);
}

/**
 * The key an authorized_keys line holds: its type (from the blob) and blob. The field before
 * the blob is skipped unread; failing that, an options field is skipped first. Null when the
 * line holds no key of a supported type.
 */
export function parseAuthorizedKey(line: string): { type: string; blob: string } | null {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return null;
  const direct = afterField(text);
  const key = direct === null ? null : keyAfterType(direct);
  if (key) return key;
  const rest = afterOptions(text);
  const afterType = rest === null ? null : afterField(rest);
  return afterType === null ? null : keyAfterType(afterType);
}
