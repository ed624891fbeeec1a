import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { randomAlnum, UUID_RE } from './uuid';

/** The server's secrets: 50 characters of [0-9a-z]. */
export const newSecret = (): string => randomAlnum(50);

/** D = lowercase hex SHA-256(secret): what is stored instead of a secret. */
export const secretDigest = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

export const hmacHex = (algo: 'sha1' | 'sha256', key: string, message: string): string =>
  createHmac(algo, key).update(message, 'utf8').digest('hex');

/**
 * A secret salted for cluster `clusterId`: hex HMAC-SHA1(key = secret, message = clusterId).
 * Keyed on the secret itself, never on its digest, so that a copy of the database is not enough
 * to make one.
 */
export const saltedSecret = (secret: string, clusterId: string): string =>
  hmacHex('sha1', secret, clusterId);

/** The last part of a salted v2 token: 40 hex digits. */
export const SALTED_SECRET_RE = /^[0-9a-f]{40}$/i;

/** Constant-time string comparison (length leaks, contents do not). */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ba.length !== bb.length) {
    timingSafeEqual(ba, ba);
    return false;
  }
  return timingSafeEqual(ba, bb);
}

export interface V2Token {
  uuid: string;
  secret: string;
}

/** `v2/<token uuid>/<secret>`, or null for any other shape. */
export function parseV2Token(token: string): V2Token | null {
  const parts = token.split('/');
  if (parts.length !== 3 || parts[0] !== 'v2') return null;
  const [, uuid, secret] = parts as [string, string, string];
  if (!UUID_RE.test(uuid) || secret.length === 0) return null;
  return { uuid, secret };
}

export const formatV2Token = (uuid: string, secret: string): string => `v2/${uuid}/${secret}`;

/** A configured token of the form `v2/<uuid>/<secret>` is reduced to its secret. */
export function bareSecret(token: string): string {
  return parseV2Token(token)?.secret ?? token;
}

/**
 * The token of an `Authorization: Bearer <token>` or `OAuth2 <token>` header (auth.md §1;
 * the scheme in any case), or null for another header.
 */
export function authorizationToken(header: string | undefined): string | null {
  const m = /^(?:Bearer|OAuth2)\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1]! : null;
}
