import { generateKeyPairSync } from 'node:crypto';

/** SSH public keys in authorized_keys form, made fresh for each test (no ssh-keygen needed). */
const str = (b: Buffer | string): Buffer => {
  const body = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
};
/** An SSH mpint: big-endian, a leading zero byte when the top bit is set. */
const mpint = (b: Buffer): Buffer => str(b[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
const jwk = (key: { export(o: { format: 'jwk' }): unknown }) =>
  key.export({ format: 'jwk' }) as Record<string, string>;
const b64 = (s: string) => Buffer.from(s, 'base64url');

export type SshKeyType =
  'ssh-ed25519' | 'ssh-rsa' | 'ecdsa-sha2-nistp256' | 'sk-ssh-ed25519@openssh.com';

function blobOf(type: SshKeyType): Buffer {
  if (type === 'ssh-rsa') {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const k = jwk(publicKey);
    return Buffer.concat([str(type), mpint(b64(k['e']!)), mpint(b64(k['n']!))]);
  }
  if (type === 'ecdsa-sha2-nistp256') {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const k = jwk(publicKey);
    const point = Buffer.concat([Buffer.from([4]), b64(k['x']!), b64(k['y']!)]);
    return Buffer.concat([str(type), str('nistp256'), str(point)]);
  }
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = b64(jwk(publicKey)['x']!);
  return type === 'ssh-ed25519'
    ? Buffer.concat([str(type), str(raw)])
    : Buffer.concat([str(type), str(raw), str('ssh:')]);
}

/** `<type> <base64 blob> <comment>` of a new key. */
export function sshPublicKey(type: SshKeyType = 'ssh-ed25519', comment = 'alice@laptop'): string {
  return `${type} ${blobOf(type).toString('base64')} ${comment}`;
}
