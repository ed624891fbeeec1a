import type { ClusterConfig } from '@svc/config';
import { apiClientAuthorizations, builtInUuids } from '@svc/contract';
import { hmacHex, makeUuid, parseV2Token, safeEqual, secretDigest } from '@svc/ids';
import { statement, type Db } from '../db/db';

/**
 * Containers' own tokens (containers.md §12, auth.md §2). A container's token is an ordinary
 * token record of the runtime user whose secret is derived from the cluster's root token and
 * the record's uuid, so the server can hand it to the dispatcher again (`containers/<uuid>/auth`)
 * without storing it. The record keeps only the usual digest.
 */

/** The secret of a container token: hex HMAC-SHA256(key = SystemRootToken, message = uuid). */
export const containerTokenSecret = (c: Readonly<ClusterConfig>, tokenUuid: string): string =>
  hmacHex('sha256', c.SystemRootToken, tokenUuid);

/** Is this record a container's own token (its digest is that of the derived secret)? */
export const isContainerToken = (
  c: Readonly<ClusterConfig>,
  row: { uuid: string; secret_digest: string | null },
): boolean =>
  row.secret_digest !== null &&
  safeEqual(secretDigest(containerTokenSecret(c, row.uuid)), row.secret_digest);

/**
 * A salted form (federation.md §3) of a container token, recognised from the secret the server
 * can recompute: the record's digest must be that of the derived secret.
 */
export function matchesSaltedContainerToken(
  c: Readonly<ClusterConfig>,
  tokenUuid: string,
  storedDigest: string,
  presented: string,
  remote: string | null,
): boolean {
  const secret = containerTokenSecret(c, tokenUuid);
  if (!safeEqual(secretDigest(secret), storedDigest)) return false;
  return [c.ClusterID, remote]
    .filter((id): id is string => id !== null)
    .some((id) => safeEqual(presented, hmacHex('sha1', secret, id)));
}

/** Makes the token a container runs with, when it is locked; returns its uuid. */
export async function createContainerToken(
  tx: Db,
  c: Readonly<ClusterConfig>,
  owner: string,
  scopes: readonly string[] | null,
  now: string,
): Promise<string> {
  const uuid = makeUuid(c.ClusterID, apiClientAuthorizations.infix);
  await tx.query(
    statement(
      `INSERT INTO api_client_authorizations
         (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, secret_digest, scopes)
       VALUES ($1, $2, $3::text::timestamptz, $3::text::timestamptz, $4, $5, $6::text::jsonb)`,
      [
        uuid,
        owner,
        now,
        builtInUuids(c.ClusterID).systemUser,
        secretDigest(containerTokenSecret(c, uuid)),
        JSON.stringify(scopes ?? ['all']),
      ],
      'container_token_insert',
    ),
  );
  return uuid;
}

/** Ends a container token when its container leaves Locked or Running. */
export async function expireContainerToken(tx: Db, tokenUuid: string, now: string): Promise<void> {
  await tx.query(
    statement(
      `UPDATE api_client_authorizations SET expires_at = $2::text::timestamptz, modified_at = $2::text::timestamptz
        WHERE uuid = $1 AND (expires_at IS NULL OR expires_at > $2::text::timestamptz)`,
      [tokenUuid, now],
      'container_token_expire',
    ),
  );
}

/**
 * The container whose own token this is (§12): the Locked or Running container it was made
 * for, or the one Locked or Running container that holds it as its runtime_token.
 */
export async function containerOfToken(db: Db, tokenUuid: string | null): Promise<string | null> {
  if (!tokenUuid) return null;
  const { rows } = await db.query<{ uuid: string; own: boolean }>(
    statement(
      `SELECT uuid, auth_uuid IS NOT DISTINCT FROM $1 AS own FROM containers
        WHERE state IN ('Locked', 'Running')
          AND (auth_uuid = $1 OR (runtime_token IS NOT NULL AND split_part(runtime_token, '/', 2) = $1))
        LIMIT 3`,
      [tokenUuid],
      'container_of_token',
    ),
  );
  const own = rows.find((r) => r.own);
  if (own) return own.uuid;
  return rows.length === 1 ? rows[0]!.uuid : null;
}

/** The uuid of a v2 runtime_token, if it is one. */
export const runtimeTokenUuid = (token: unknown): string | null =>
  typeof token === 'string' ? (parseV2Token(token)?.uuid ?? null) : null;
