import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * E, the encrypted copy of a token's secret kept beside its digest: AES-256-GCM under a key
 * derived from SystemRootToken, so that the secret can be recovered to check salted tokens, and
 * yet a copy of the database alone recovers nothing.
 *
 * Stored form: `v1:` + base64(iv (12 bytes) ‖ ciphertext ‖ tag (16 bytes)). The token's uuid is
 * the additional authenticated data: a sealed secret opens only on its own record.
 */
const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key: HMAC-SHA256(key = SystemRootToken, message = "token-secret-key"), 32 raw bytes. */
export const tokenSecretKey = (systemRootToken: string): Buffer =>
  createHmac('sha256', systemRootToken).update('token-secret-key', 'utf8').digest();

/** The key that seals credentials' secrets (a key of its own, from the same root token). */
export const credentialSecretKey = (systemRootToken: string): Buffer =>
  createHmac('sha256', systemRootToken).update('credential-secret-key', 'utf8').digest();

export function sealTokenSecret(key: Buffer, tokenUuid: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(tokenUuid, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

/** The secret sealed in `sealed`, or null if it does not open with this key on this record. */
export function openTokenSecret(key: Buffer, tokenUuid: string, sealed: string): string | null {
  if (!sealed.startsWith(VERSION)) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(tokenUuid, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    // Wrong key (SystemRootToken changed), wrong record, or altered bytes: the tag does not verify.
    return null;
  }
}
