import { createHmac, timingSafeEqual } from 'node:crypto';
import { hintOf, parseLocator, withoutHints } from './locator';

/**
 * Permission signatures (storage.md §2): `+A<signature>@<expiry>` lets the holder of one
 * token read one block until the expiry.
 */
export interface SigningParams {
  /** Collections.BlobSigningKey. */
  key: string;
  /** Collections.BlobSigningTTL, seconds: part of the signed message. */
  ttlSeconds: number;
}

export type SignatureCheck = 'ok' | 'missing signature' | 'expired signature' | 'invalid signature';

const SIGNATURE_RE = /^([0-9a-f]{40})@([0-9a-f]{8})$/;

/** Unix seconds as 8 lowercase hex digits, zero-padded. */
export const expiryHex = (unixSeconds: number): string =>
  Math.floor(unixSeconds).toString(16).padStart(8, '0');

/** HMAC-SHA1 over `<md5>@<token>@<expiry hex>@<ttl hex>`, lowercase hex. */
export function signatureOf(hash: string, token: string, expiry: string, p: SigningParams): string {
  return createHmac('sha1', p.key)
    .update(`${hash}@${token}@${expiry}@${p.ttlSeconds.toString(16)}`, 'utf8')
    .digest('hex');
}

/**
 * The locator with `+A<sig>@<expiry>` for `token`, replacing any permission hint it had; the
 * new hint goes last, other hints keep their order.
 */
export function signLocator(
  locator: string,
  token: string,
  expiresAtUnix: number,
  p: SigningParams,
): string {
  const unsigned = withoutHints(locator, (h) => h.startsWith('A'));
  const expiry = expiryHex(expiresAtUnix);
  return `${unsigned}+A${signatureOf(unsigned.slice(0, 32), token, expiry, p)}@${expiry}`;
}

/**
 * Checks a locator's permission hint for `token` at `nowUnix` (seconds). The expiry is checked
 * before the HMAC.
 */
export function checkSignature(
  locator: string,
  token: string,
  nowUnix: number,
  p: SigningParams,
): SignatureCheck {
  const parsed = parseLocator(locator);
  const hint = parsed && hintOf(parsed, 'A');
  const m = hint === null || hint === undefined ? null : SIGNATURE_RE.exec(hint);
  if (!parsed || !m) return 'missing signature';
  if (parseInt(m[2]!, 16) < nowUnix) return 'expired signature';
  const expected = Buffer.from(signatureOf(parsed.hash, token, m[2]!, p), 'utf8');
  const given = Buffer.from(m[1]!, 'utf8');
  return timingSafeEqual(expected, given) ? 'ok' : 'invalid signature';
}
