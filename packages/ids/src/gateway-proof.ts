import { createHmac, randomBytes } from 'node:crypto';
import { hmacHex, safeEqual } from './token';

/**
 * Cores trust only calls the gateway vouched for: the gateway signs each call (method, URL,
 * request id, time, the body — which holds the caller's identity and the call's options — and
 * a sequence number that makes it usable once) with a key derived from the cluster's
 * SystemRootToken, which only the gateway and that cluster's core know (docs/adr/0002, 0006,
 * 0012).
 */
export const PROOF_HEADER = 'x-svc-gateway-proof';

/**
 * Who the gateway says is calling, as the token's cluster knew it when the token was checked
 * (the gateway caches this for a bounded time; see docs/adr/0003).
 */
export interface Identity {
  /** The user the request acts as. */
  userUuid: string;
  /** The token record's uuid (the root token has a built-in one). */
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
  /** What the gateway knows of the request: the address it came from (token records keep it). */
  clientAddress?: string;
  /** `scheme://host:port` of the gateway as the client reached it (ExternalURL if set). */
  origin?: string;
}

export const proofKey = (systemRootToken: string): string =>
  hmacHex('sha256', systemRootToken, 'svc gateway-to-core proof v1');

/**
 * What a gateway shows its own cluster cores to read their health (`/_health/all`), whether or
 * not the cluster has a ManagementToken: derived from the root token both of them know.
 */
export const internalHealthToken = (systemRootToken: string): string =>
  hmacHex('sha256', systemRootToken, 'svc gateway-to-core health v1');

/** An identity as the hop carries it (JSON), checked field by field on arrival. */
export function identityFrom(value: unknown): Identity | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v['userUuid'] !== 'string' || !Array.isArray(v['scopes'])) return null;
  if (typeof v['isAdmin'] !== 'boolean' || typeof v['isActive'] !== 'boolean') return null;
  return value as Identity;
}

/** What a proof covers: the whole call as the core receives it. */
export interface ProofFields {
  method: string;
  /** Path and query of the hop request. */
  url: string;
  requestId: string;
  /** The request body (signed with the fields; not kept). */
  body: Uint8Array | string;
}

const head = (ts: number, sender: string, seq: number, f: ProofFields): string =>
  ['v2', ts, sender, seq, f.method.toUpperCase(), f.url, f.requestId, ''].join('\n');

/**
 * One HMAC over the call's fields and then its body as received: no separate digest of the
 * body (the fields hold no newline, so the body starts after the last of their separators).
 */
const mac = (key: string, ts: number, sender: string, seq: number, f: ProofFields): string =>
  createHmac('sha256', key)
    .update(head(ts, sender, seq, f), 'utf8')
    .update(f.body)
    .digest('hex');

/**
 * Signs calls for one sending process: each proof carries the time, the sender's random id and
 * a sequence number, so that no two proofs are alike and a cluster can accept each once (its
 * cores remember the proofs they accepted while they are recent: docs/adr/0017).
 */
export class ProofSigner {
  readonly sender = randomBytes(9).toString('base64url');
  private seq = 0;

  sign(key: string, fields: ProofFields, now = Date.now()): string {
    this.seq += 1;
    return `v2.${now}.${this.sender}.${this.seq}.${mac(key, now, this.sender, this.seq, fields)}`;
  }
}

export interface VerifiedProof {
  sender: string;
  seq: number;
  /** When the gateway signed it (ms since the epoch, the gateway's clock). */
  signedAt: number;
}

const PROOF = /^v2\.(\d{1,16})\.([A-Za-z0-9_-]{12})\.(\d{1,15})\.([0-9a-f]{64})$/;

/**
 * The proof's sender and sequence number when its signature matches the call and its time is
 * within `maxSkewMs` of now; null otherwise. Replays are the caller's to refuse: a proof is
 * valid for as long as its time is within the skew of now, and must be accepted once.
 */
export function verifyProof(
  key: string,
  header: string | undefined,
  fields: ProofFields,
  now = Date.now(),
  maxSkewMs = PROOF_MAX_SKEW_MS,
): VerifiedProof | null {
  if (!header) return null;
  const m = PROOF.exec(header);
  if (!m) return null;
  const ts = Number(m[1]);
  if (Math.abs(now - ts) > maxSkewMs) return null;
  const sender = m[2]!;
  const seq = Number(m[3]);
  return safeEqual(m[4]!, mac(key, ts, sender, seq, fields)) ? { sender, seq, signedAt: ts } : null;
}

export const PROOF_MAX_SKEW_MS = 60_000;
