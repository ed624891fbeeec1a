import type { ClusterConfig } from '@svc/config';
import { UnprocessableError } from '@svc/errors';
import { safeEqual, secretDigest, type Identity } from '@svc/ids';
import { statement, type Db } from '../db/db';
import { crudHandlers } from '../resources/common/crud';
import { addSeconds, nowCanonical } from '../resources/common/row';
import { userRules } from '../resources/users/rules';
import { serviceCall } from '../service-call';
import { freeUsername } from '../resources/users/username';
import { sendQueuedMail } from '../mail/queue';
import type { ValidToken } from './valid-token';

interface CachedRow {
  uuid: string;
  secret_digest: string;
  user_uuid: string;
  scopes: string[];
  expires_at: string | null;
  refresh_at: string;
  is_admin: boolean;
  is_active: boolean;
}

const identityOf = (r: {
  uuid: string;
  user_uuid: string;
  scopes: string[];
  is_admin: boolean;
  is_active: boolean;
}): Identity => ({
  userUuid: r.user_uuid,
  tokenUuid: r.uuid,
  scopes: r.scopes,
  apiClientUuid: null,
  // A remembered remote token is untrusted (auth.md §7).
  apiClientTrusted: false,
  isAdmin: r.is_admin,
  isActive: r.is_active,
});

/** The earlier of expiry and refresh: when the gateway must stop trusting what it caches. */
const validUntil = (expires: string | null, refresh: string): string =>
  expires !== null && expires < refresh ? expires : refresh;

/**
 * federation.md §4 step 1: a token of another cluster, validated at its issuer before and not
 * due for a refresh, whose presented secret is the one validated then.
 */
export async function rememberedRemoteToken(
  db: Db,
  tokenUuid: string,
  secret: string,
): Promise<ValidToken | null> {
  const { rows } = await db.query<CachedRow>(
    statement(
      `SELECT r.uuid, r.secret_digest, r.user_uuid, r.scopes, r.expires_at, r.refresh_at,
              u.is_admin, u.is_active
         FROM remote_tokens r JOIN users u ON u.uuid = r.user_uuid
        WHERE r.uuid = $1 AND r.refresh_at > clock_timestamp()
          AND (r.expires_at IS NULL OR r.expires_at > clock_timestamp())`,
      [tokenUuid],
      'remote_token_by_uuid',
    ),
  );
  const row = rows[0];
  if (!row || !safeEqual(secretDigest(secret), row.secret_digest)) return null;
  return { identity: identityOf(row), expiresAt: validUntil(row.expires_at, row.refresh_at) };
}

/** What the issuer said of a token and its user (federation.md §4 steps 2–3). */
export interface RemoteValidation {
  tokenUuid: string;
  /** The secret as presented here (salted for this cluster). */
  secret: string;
  scopes: string[];
  expiresAt: string | null;
  user: {
    uuid: string;
    email: string | null;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    is_active: boolean;
  };
  /** `RemoteClusters.<issuer>.ActivateUsers`. */
  activateUsers: boolean;
}

/** A local username for a mirror: the remote one, suffixed on a clash; kept until it changes. */
async function mirrorUsername(
  tx: Db,
  v: RemoteValidation,
  existing: boolean,
): Promise<string | null> {
  if (existing) {
    const { rows } = await tx.query<{ remote_username: string | null; username: string | null }>(
      statement(
        `SELECT m.remote_username, u.username FROM users u
           LEFT JOIN mirrored_users m ON m.user_uuid = u.uuid WHERE u.uuid = $1`,
        [v.user.uuid],
      ),
    );
    if (rows[0] && rows[0].remote_username === v.user.username) return rows[0].username;
  }
  const base = v.user.username?.replace(/[^A-Za-z0-9]/g, '').replace(/^[0-9]+/, '') || null;
  return freeUsername(tx, base, v.user.uuid);
}

/**
 * federation.md §4 steps 4–5, in one transaction: create or refresh the local mirror of the
 * remote user (never admin; is_active per ActivateUsers, and always false when the remote says
 * so), and remember the validation until RemoteTokenRefresh. Concurrent first uses of one token
 * wait for each other here, so there is one mirror and one record.
 */
export async function rememberRemoteToken(
  deps: { db: Db; cluster: Readonly<ClusterConfig> },
  v: RemoteValidation,
): Promise<ValidToken> {
  const locals: Record<string, unknown> = {};
  const valid = await deps.db.transaction(async (tx) => {
    await tx.query(statement('SELECT pg_advisory_xact_lock(hashtext($1))', [v.user.uuid]));
    const { rows } = await tx.query<{ is_active: boolean }>(
      statement('SELECT is_active FROM users WHERE uuid = $1', [v.user.uuid]),
    );
    const existing = rows[0];
    const isActive = !v.user.is_active
      ? false
      : v.activateUsers
        ? true
        : (existing?.is_active ?? false);
    const attributes = {
      email: v.user.email,
      first_name: v.user.first_name,
      last_name: v.user.last_name,
      username: await mirrorUsername(tx, v, existing !== undefined),
      is_admin: false,
      is_active: isActive,
    };
    const users = crudHandlers(userRules);
    if (existing) {
      await users.update!(
        serviceCall(
          deps,
          tx,
          'svc.users.update',
          { uuid: v.user.uuid, attributes },
          undefined,
          locals,
        ),
      );
    } else {
      await users.create!(
        serviceCall(
          deps,
          tx,
          'svc.users.create',
          { attributes: { ...attributes, uuid: v.user.uuid } },
          undefined,
          locals,
        ),
      );
    }
    await tx.query(
      statement(
        `INSERT INTO mirrored_users (user_uuid, remote_username) VALUES ($1, $2)
         ON CONFLICT (user_uuid) DO UPDATE SET remote_username = EXCLUDED.remote_username`,
        [v.user.uuid, v.user.username],
      ),
    );
    const refreshAt = addSeconds(nowCanonical(), deps.cluster.Login.RemoteTokenRefresh);
    await tx.query(
      statement(
        `INSERT INTO remote_tokens (uuid, secret_digest, user_uuid, scopes, expires_at, refresh_at)
         VALUES ($1, $2, $3, $4::jsonb, $5::timestamptz, $6::timestamptz)
         ON CONFLICT (uuid) DO UPDATE SET secret_digest = EXCLUDED.secret_digest,
           user_uuid = EXCLUDED.user_uuid, scopes = EXCLUDED.scopes,
           expires_at = EXCLUDED.expires_at, refresh_at = EXCLUDED.refresh_at`,
        [
          v.tokenUuid,
          secretDigest(v.secret),
          v.user.uuid,
          JSON.stringify(v.scopes),
          v.expiresAt,
          refreshAt,
        ],
      ),
    );
    const identity = identityOf({
      uuid: v.tokenUuid,
      user_uuid: v.user.uuid,
      scopes: v.scopes,
      is_admin: false,
      is_active: isActive,
    });
    return { identity, expiresAt: validUntil(v.expiresAt, refreshAt) };
  });
  sendQueuedMail({ cluster: deps.cluster, locals });
  return valid;
}

/** The body of `/_internal/remote-tokens/remember`, checked field by field. */
export function remoteValidationFrom(body: Record<string, unknown>): RemoteValidation {
  const v = body as unknown as RemoteValidation;
  const ok =
    typeof v.tokenUuid === 'string' &&
    typeof v.secret === 'string' &&
    Array.isArray(v.scopes) &&
    typeof v.user === 'object' &&
    v.user !== null &&
    typeof v.user.uuid === 'string' &&
    typeof v.user.is_active === 'boolean' &&
    typeof v.activateUsers === 'boolean';
  if (!ok) throw new UnprocessableError('remote validation must describe the token and user');
  return v;
}
