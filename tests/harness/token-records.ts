import { createDecipheriv, createHash, createHmac } from 'node:crypto';
import type { TestDeployment } from './deployment';

/**
 * Reads token records straight from the home cluster's database, and opens E the way the
 * contract defines it (AES-256-GCM, key = HMAC-SHA256(key = SystemRootToken, message =
 * "token-secret-key")), independently of the server's code. E is stored as
 * `v1:` + base64(iv (12 bytes) ‖ ciphertext ‖ tag (16 bytes)), with the token uuid as AAD.
 */

export type TokenRow = Record<string, unknown> & {
  uuid: string;
  secret_digest: string | null;
  secret_ciphertext: string | null;
};

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex');
/** hex HMAC-SHA1(key = secret, message = cluster id): a salted token's last part. */
export const salt = (key: string, clusterId: string): string =>
  createHmac('sha1', key).update(clusterId).digest('hex');

export async function tokenRow(d: TestDeployment, uuid: string): Promise<TokenRow> {
  const { rows } = await d.running.cores[0]!.db.query<TokenRow>({
    text: 'SELECT * FROM api_client_authorizations WHERE uuid = $1',
    values: [uuid],
  });
  if (rows.length !== 1) throw new Error(`no token record ${uuid}`);
  return rows[0]!;
}

/** The secret in E, or null when E does not open with this root token on this record. */
export function openSealed(rootToken: string, uuid: string, sealed: string | null): string | null {
  if (sealed === null || !sealed.startsWith('v1:')) return null;
  const raw = Buffer.from(sealed.slice(3), 'base64');
  const key = createHmac('sha256', rootToken).update('token-secret-key').digest();
  try {
    const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(uuid));
    d.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString();
  } catch {
    return null;
  }
}

/**
 * The record keeps the secret only as D = sha256(secret) and E (opens with this cluster's root
 * token to the secret, and with no other key); the secret is nowhere in the clear.
 */
export async function expectSecretKeptSafely(
  d: TestDeployment,
  uuid: string,
  secret: string,
): Promise<TokenRow> {
  const row = await tokenRow(d, uuid);
  expect(JSON.stringify(row)).not.toContain(secret);
  expect(row.secret_digest).toBe(sha256Hex(secret));
  expect(openSealed(d.home.rootToken, uuid, row.secret_ciphertext)).toBe(secret);
  expect(openSealed(`${d.home.rootToken}x`, uuid, row.secret_ciphertext)).toBeNull();
  const otherUuid = `${uuid.slice(0, -1)}${uuid.endsWith('x') ? 'y' : 'x'}`;
  expect(openSealed(d.home.rootToken, otherUuid, row.secret_ciphertext)).toBeNull();
  return row;
}
