import { builtInUuids, type LoginIdentity } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { secretDigest, type Identity } from '@svc/ids';
import { statement, type Db } from '../db/db';
import { addSeconds, nowCanonical } from '../resources/common/row';
import { storedSecret } from '../resources/api-client-authorizations/rules';
import { findOrCreateUser, issueToken, type LoginDeps } from './register-login';

/** How long an accepted identity-provider access token is trusted without asking the provider (auth.md §10). */
export const ACCESS_TOKEN_CACHE_SECONDS = 600;

const HEX_KEY = /^[0-9a-f]{64}$/;

const isUniqueViolation = (err: unknown): boolean =>
  (err as { code?: unknown } | null)?.code === '23505';

/** The record for `cacheKey`: any earlier one (expired, or left by a logout) is replaced. */
async function replaceRecord(
  deps: LoginDeps,
  tx: Db,
  userUuid: string,
  cacheKey: string,
  expiresAt: string,
): Promise<string> {
  const digest = secretDigest(cacheKey);
  await tx.query(
    statement('DELETE FROM api_client_authorizations WHERE secret_digest = $1', [digest]),
  );
  // The record belongs to the built-in trusted client (auth.md §7).
  const record = await issueToken(deps, tx, {
    owner_uuid: userUuid,
    scopes: ['all'],
    expires_at: expiresAt,
  });
  const tokenUuid = String(record['uuid']);
  // The create made a random secret (returned to nobody); the record's secret is K instead,
  // kept like every other secret: its digest, and a copy sealed under SystemRootToken.
  const kept = storedSecret(deps.cluster.SystemRootToken, tokenUuid, cacheKey);
  await tx.query(
    statement(
      'UPDATE api_client_authorizations SET secret_digest = $1, secret_ciphertext = $2 WHERE uuid = $3',
      [kept.secret_digest, kept.secret_ciphertext, tokenUuid],
    ),
  );
  return tokenUuid;
}

async function store(
  deps: LoginDeps,
  login: LoginIdentity,
  cacheKey: string,
): Promise<{ identity: Identity; expiresAt: string }> {
  const expiresAt = addSeconds(nowCanonical(), ACCESS_TOKEN_CACHE_SECONDS);
  return deps.db.transaction(async (tx) => {
    const userUuid = await findOrCreateUser(deps, tx, login);
    const tokenUuid = await replaceRecord(deps, tx, userUuid, cacheKey, expiresAt);
    const { rows } = await tx.query<{ is_admin: boolean; is_active: boolean }>(
      statement('SELECT is_admin, is_active FROM users WHERE uuid = $1', [userUuid]),
    );
    const identity: Identity = {
      userUuid,
      tokenUuid,
      scopes: ['all'],
      apiClientUuid: builtInUuids(deps.cluster.ClusterID).internalApiClient,
      apiClientTrusted: true,
      isAdmin: rows[0]?.is_admin ?? false,
      isActive: rows[0]?.is_active ?? false,
    };
    return { identity, expiresAt };
  });
}

/**
 * auth.md §10 steps 3–4, after the gateway has checked the token with the provider: register the
 * user, and store a record whose secret is K = hex HMAC-SHA256(SystemRootToken, token) — `cacheKey`,
 * computed by the gateway — kept as its digest and sealed copy like every secret, so later requests with the same
 * token are found by the ordinary token check (validate-token.ts) until the record expires.
 */
export async function storeAccessToken(
  deps: LoginDeps,
  login: LoginIdentity,
  cacheKey: string,
): Promise<{ identity: Identity; expiresAt: string }> {
  if (!HEX_KEY.test(cacheKey))
    throw new UnprocessableError('cacheKey must be 64 lowercase hex digits');
  try {
    return await store(deps, login, cacheKey);
  } catch (err) {
    // Two first requests with the same token at once: the loser retries and replaces the winner's record.
    if (!isUniqueViolation(err)) throw err;
    return store(deps, login, cacheKey);
  }
}
