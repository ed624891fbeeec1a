import type { ClusterConfig } from '@svc/config';
import { anonymousIdentity, builtInUuids, rootIdentity } from '@svc/contract';
import {
  hmacHex,
  openTokenSecret,
  parseUuid,
  parseV2Token,
  SALTED_SECRET_RE,
  safeEqual,
  saltedSecret,
  secretDigest,
  tokenSecretKey,
} from '@svc/ids';
import { statement, type Db } from '../db/db';
import { rememberedRemoteToken } from './remote-tokens';
import { redirectedUser } from '../resources/users/merged';
import type { ValidToken } from './valid-token';

export type { ValidToken };
import { isContainerToken, matchesSaltedContainerToken } from './container-token';

export interface TokenCheck {
  token: string;
  /** `remote=<id>`: honoured only on the two `current` endpoints (auth.md §3). */
  remote: string | null;
}

interface TokenRow {
  uuid: string;
  owner_uuid: string;
  secret_digest: string | null;
  secret_ciphertext: string | null;
  scopes: string[];
  expires_at: string | null;
  api_client_uuid: string | null;
  trusted: boolean;
  is_admin: boolean;
  is_active: boolean;
  redirected: boolean;
}

const TOKEN_COLUMNS = `t.uuid, t.owner_uuid, t.secret_digest, t.secret_ciphertext, t.scopes, t.expires_at, t.api_client_uuid,
  coalesce(c.is_trusted, false) AS trusted, u.is_admin, u.is_active,
  u.redirect_to_user_uuid IS NOT NULL AS redirected
  FROM api_client_authorizations t
  JOIN users u ON u.uuid = t.owner_uuid
  LEFT JOIN api_clients c ON c.uuid = t.api_client_uuid`;
const nowIso = (): string => new Date().toISOString();
const UNEXPIRED = '(t.expires_at IS NULL OR t.expires_at > clock_timestamp())';

const toValid = (row: TokenRow, echo: string): ValidToken & { redirected?: boolean } => ({
  ...(row.redirected ? { redirected: true } : {}),
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

function anonymousMatch(c: Readonly<ClusterConfig>, token: string): boolean {
  const anon = c.Users.AnonymousUserToken;
  if (anon === '') return false;
  const v2 = parseV2Token(token);
  if (!v2) return safeEqual(token, anon);
  if (v2.uuid !== builtInUuids(c.ClusterID).anonymousToken) return false;
  return safeEqual(v2.secret, anon) || safeEqual(v2.secret, saltedSecret(anon, c.ClusterID));
}

function rootMatch(c: Readonly<ClusterConfig>, token: string): boolean {
  const v2 = parseV2Token(token);
  if (!v2) return safeEqual(token, c.SystemRootToken);
  return v2.uuid === builtInUuids(c.ClusterID).rootToken && safeEqual(v2.secret, c.SystemRootToken);
}

/**
 * The record's secret, recovered from E to check a salted token; null when the record has no E
 * (made before E existed) or E does not open under this SystemRootToken or does not match D.
 */
function recoveredSecret(c: Readonly<ClusterConfig>, row: TokenRow): string | null {
  if (row.secret_ciphertext === null || row.secret_digest === null) return null;
  const secret = openTokenSecret(
    tokenSecretKey(c.SystemRootToken),
    row.uuid,
    row.secret_ciphertext,
  );
  return secret !== null && safeEqual(secretDigest(secret), row.secret_digest) ? secret : null;
}

/** Is `presented` the record's secret salted for this cluster, or for `remote` when honoured? */
function saltedMatch(
  c: Readonly<ClusterConfig>,
  row: TokenRow,
  presented: string,
  remote: string | null,
): boolean {
  if (!SALTED_SECRET_RE.test(presented)) return false;
  const secret = recoveredSecret(c, row);
  if (secret === null) return false;
  const forHere = safeEqual(presented, saltedSecret(secret, c.ClusterID));
  return forHere || (remote !== null && safeEqual(presented, saltedSecret(secret, remote)));
}

/** auth.md §3 step 4: the digest of the presented secret is D, or it is the secret salted. */
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
  if (safeEqual(secretDigest(secret), row.secret_digest)) {
    // A container's own token ends with its container (containers.md §12): never cached.
    return isContainerToken(c, row)
      ? { ...toValid(row, secret), expiresAt: nowIso() }
      : toValid(row, secret);
  }
  if (saltedMatch(c, row, secret, remote)) return toValid(row, secret);
  // A container's own token has no stored copy of its secret: the server recomputes it.
  return matchesSaltedContainerToken(c, uuid, row.secret_digest, secret, remote)
    ? toValid(row, secret)
    : null;
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
  const row = rows[0];
  if (!row) return null;
  const ownSecret = row.secret_digest !== null && safeEqual(row.secret_digest, secretDigest(token));
  return ownSecret
    ? { ...toValid(row, token), v2Form: `v2/${row.uuid}/${token}` }
    : toValid(row, token);
}

/**
 * Who a token belongs to (auth.md §3 steps 2–4 and 6), or null. Digests are compared in
 * constant time; the database holds no secret in the clear (only D and E, see storedSecret).
 */
export async function validateToken(
  db: Db,
  c: Readonly<ClusterConfig>,
  check: TokenCheck,
): Promise<ValidToken | null> {
  const valid: (ValidToken & { redirected?: boolean }) | null = await validateOnce(db, c, check);
  return valid?.redirected ? actAsRedirected(db, valid) : valid;
}

/**
 * A token of a user merged with redirect acts as the user it was merged into (docs/api/more-resources.md
 * §5.6), with that user's flags.
 */
async function actAsRedirected(
  db: Db,
  valid: ValidToken & { redirected?: boolean },
): Promise<ValidToken> {
  const target = await redirectedUser(db, valid.identity.userUuid);
  const { rows } = await db.query<{ is_admin: boolean; is_active: boolean }>(
    statement('SELECT is_admin, is_active FROM users WHERE uuid = $1', [target]),
  );
  const flags = rows[0] ?? { is_admin: false, is_active: false };
  const { redirected: _r, ...rest } = valid;
  return {
    ...rest,
    identity: {
      ...valid.identity,
      userUuid: target,
      isAdmin: flags.is_admin,
      isActive: flags.is_active,
    },
  };
}

async function validateOnce(
  db: Db,
  c: Readonly<ClusterConfig>,
  { token, remote }: TokenCheck,
): Promise<(ValidToken & { redirected?: boolean }) | null> {
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
      : rememberedRemoteToken(db, v2.uuid, v2.secret);
  }
  return bare(db, c, token);
}
