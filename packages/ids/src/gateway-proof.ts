import { createHmac } from 'node:crypto';
import { hmacHex, safeEqual } from './token';

/**
 * Cores trust only requests the gateway vouched for: the gateway signs each forwarded request
 * (method, URL, identity, request id, time) with a key derived from the cluster's
 * SystemRootToken, which only the gateway and that cluster's core know.
 */
export const PROOF_HEADER = 'x-svc-gateway-proof';
export const IDENTITY_HEADER = 'x-svc-identity';

/**
 * Who the gateway says is calling, as the token's cluster knew it when the token was checked
 * (the gateway caches this for a bounded time; see docs/adr/0003).
 */
export interface Identity {
  /** The user the request acts as. */
  userUuid: string;
  /** The token record's uuid (the root token's is `<c>-gj3su-000000000000000`). */
  tokenUuid: string | null;
  scopes: string[];
  apiClientUuid: string | null;
  /** The token's api_client is trusted (auth.md §7). */
  apiClientTrusted: boolean;
  isAdmin: boolean;
  isActive: boolean;
  /** The presented secret, passed only to the endpoints that echo it (`current`). */
  echoToken?: string;
  /**
   * The token exactly as the client presented it (a v2 token whole): permission signatures on
   * block locators are made for this string (storage.md §2). Never logged.
   */
  token?: string;
}

export const proofKey = (systemRootToken: string): string =>
  hmacHex('sha256', systemRootToken, 'svc gateway-to-core proof v1');

export const encodeIdentity = (identity: Identity): string =>
  Buffer.from(JSON.stringify(identity), 'utf8').toString('base64url');

export function decodeIdentity(header: string): Identity | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    if (typeof v['userUuid'] !== 'string' || !Array.isArray(v['scopes'])) return null;
    if (typeof v['isAdmin'] !== 'boolean' || typeof v['isActive'] !== 'boolean') return null;
    return value as Identity;
  } catch {
    return null;
  }
}

export interface ProofFields {
  method: string;
  url: string;
  identity: string;
  requestId: string;
}

const payload = (ts: number, f: ProofFields): string =>
  [ts, f.method.toUpperCase(), f.url, f.identity, f.requestId].join('\n');

const mac = (key: string, text: string): string =>
  createHmac('sha256', key).update(text, 'utf8').digest('hex');

export function signProof(key: string, fields: ProofFields, now = Date.now()): string {
  return `v1.${now}.${mac(key, payload(now, fields))}`;
}

/** Valid when the signature matches and the timestamp is within `maxSkewMs` of now. */
export function verifyProof(
  key: string,
  header: string | undefined,
  fields: ProofFields,
  now = Date.now(),
  maxSkewMs = 60_000,
): boolean {
  if (!header) return false;
  const m = /^v1\.(\d{1,16})\.([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const ts = Number(m[1]);
  if (Math.abs(now - ts) > maxSkewMs) return false;
  return safeEqual(m[2]!, mac(key, payload(ts, fields)));
}
