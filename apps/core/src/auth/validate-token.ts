import type { ClusterConfig } from '@svc/config';
import { anonymousIdentity, builtInUuids, rootIdentity } from '@svc/contract';
import { hmacHex, parseUuid, parseV2Token, safeEqual, secretDigest, type Identity } from '@svc/ids';
import { statement, type Db } from '../db/db';
import { matchesSaltedContainerToken } from './container-token';

export interface TokenCheck {
  token: string;
  /** `remote=<id>`: honoured only on the two `current` endpoints (auth.md §3). */
  remote: string | null;
}

export interface ValidToken {
  identity: Identity;
  /** When the record stops being valid, if ever (the gateway caches no longer). */
  expiresAt: string | null;
}

interface TokenRow {
  uuid: string;
  owner_uuid: string;
  secret_digest: string | null;
  scopes: string[];
  expires_at: string | null;
  api_client_uuid: string | null;
  trusted: boolean;
  is_admin: boolean;
  is_active: boolean;
}

const TOKEN_COLUMNS = `t.uuid, t.owner_uuid, t.secret_digest, t.scopes, t.expires_at, t.api_client_uuid,
  coalesce(c.is_trusted, false) AS trusted, u.is_admin, u.is_active
  FROM api_client_authorizations t
  JOIN users u ON u.uuid = t.owner_uuid
  LEFT JOIN api_clients c ON c.uuid = t.api_client_uuid`;
const UNEXPIRED = '(t.expires_at IS NULL OR t.expires_at > clock_timestamp())';

const toValid = (row: TokenRow, echo: string): ValidToken => ({
  identity: {
    userUuid: row.owner_uuid,
    tokenUuid: row.uuid,
    scopes: row.scopes,
    apiClientUuid: row.api_client_uuid,
    apiClientTrusted: row.trusted,
    isAdmin: row.is_admin,
    isActive: row.is_active,
    echoToken: echo,
  },
  expiresAt: row.expires_at,
});

/** The secret salted for cluster `id` (federation.md §3). */
const salted = (digest: string, id: string): string => hmacHex('sha1', digest, id);

function anonymousMatch(c: Readonly<ClusterConfig>, token: string): boolean {
  const anon = c.Users.AnonymousUserToken;
  if (anon === '') return false;
  const v2 = parseV2Token(token);
  if (!v2) return safeEqual(token, anon);
  if (v2.uuid !== builtInUuids(c.ClusterID).anonymousToken) return false;
  return (
    safeEqual(v2.secret, anon) || safeEqual(v2.secret, salted(secretDigest(anon), c.ClusterID))
  );
}

function rootMatch(c: Readonly<ClusterConfig>, token: string): boolean {
  const v2 = parseV2Token(token);
  if (!v2) return safeEqual(token, c.SystemRootToken);
  return v2.uuid === builtInUuids(c.ClusterID).rootToken && safeEqual(v2.secret, c.SystemRootToken);
}

async function v2Local(
  db: Db,
  c: Readonly<ClusterConfig>,
  uuid: string,
  secret: string,
  remote: string | null,
) {
  const { rows } = await db.query<TokenRow>(
    statement(
      `SELECT ${TOKEN_COLUMNS} WHERE t.uuid = $1 AND ${UNEXPIRED}`,
      [uuid],
      'token_by_uuid',
    ),
  );
  const row = rows[0];
  if (!row?.secret_digest) return null;
  const d = row.secret_digest;
  if (safeEqual(secretDigest(secret), d) || safeEqual(secret, salted(d, c.ClusterID))) {
    return toValid(row, secret);
  }
  if (remote !== null && safeEqual(secret, salted(d, remote))) return toValid(row, secret);
  if (matchesSaltedContainerToken(c, uuid, d, secret, remote)) return toValid(row, secret);
  return null;
}

/** Bare secrets, and cached identity-provider access tokens (stored as HMAC(root, token)). */
async function bare(db: Db, c: Readonly<ClusterConfig>, token: string) {
  const cached = hmacHex('sha256', c.SystemRootToken, token);
  const { rows } = await db.query<TokenRow>(
    statement(
      `SELECT ${TOKEN_COLUMNS} WHERE t.secret_digest = ANY($1::text[]) AND ${UNEXPIRED}`,
      [[secretDigest(token), secretDigest(cached)]],
      'token_by_digest',
    ),
  );
  return rows[0] ? toValid(rows[0], token) : null;
}

/**
 * Who a token belongs to (auth.md §3 steps 2–4 and 6), or null. Digests are compared in
 * constant time; the database holds no secret.
 */
export async function validateToken(
  db: Db,
  c: Readonly<ClusterConfig>,
  { token, remote }: TokenCheck,
): Promise<ValidToken | null> {
  if (token === '') return null;
  if (anonymousMatch(c, token))
    return { identity: anonymousIdentity(c.ClusterID), expiresAt: null };
  if (rootMatch(c, token)) {
    return {
      identity: rootIdentity(c.ClusterID, parseV2Token(token)?.secret ?? token),
      expiresAt: null,
    };
  }
  const v2 = parseV2Token(token);
  if (v2) {
    return parseUuid(v2.uuid)?.cluster === c.ClusterID
      ? v2Local(db, c, v2.uuid, v2.secret, remote)
      : null;
  }
  return bare(db, c, token);
}
