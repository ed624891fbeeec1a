import { credentials, logs, moreMsg } from '@svc/contract';
import { ForbiddenError, internalError } from '@svc/errors';
import { credentialSecretKey, makeUuid, openTokenSecret } from '@svc/ids';
import { containerOfToken } from '../../auth/container-token';
import { stringOption, type Call, type Reply } from '../../call';
import { statement, type Db } from '../../db/db';
import { findVisible } from '../common/crud';
import { nowCanonical, type Row } from '../common/row';
import { credentialPolicy } from './policy';

interface Sealed {
  secret_ciphertext: string | null;
  expired: boolean;
}

/** Is the token the own token of a container that is Running now (containers.md §12)? */
async function ofRunningContainer(db: Db, tokenUuid: string | null): Promise<boolean> {
  const container = await containerOfToken(db, tokenUuid);
  if (!container) return false;
  const { rows } = await db.query(
    statement(`SELECT 1 FROM containers WHERE uuid = $1 AND state = 'Running'`, [container]),
  );
  return rows.length > 0;
}

/** Every fetch is recorded (never the secret): who, which credential, its public part. */
async function recordAccess(call: Call, row: Row): Promise<void> {
  const now = nowCanonical();
  await call.db.query(
    statement(
      `INSERT INTO logs (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid,
                         object_uuid, object_owner_uuid, event_type, event_at, properties)
       VALUES ($1, $2, $3::text::timestamptz, $3::text::timestamptz, $2, $4, $5,
               'secret_access', $3::text::timestamptz, $6::text::jsonb)`,
      [
        makeUuid(call.cluster.ClusterID, logs.infix),
        call.caller.uuid,
        now,
        row['uuid'],
        row['owner_uuid'],
        JSON.stringify({
          name: row['name'],
          credential_class: row['credential_class'],
          external_id: row['external_id'],
        }),
      ],
    ),
  );
}

/**
 * `GET /credentials/<uuid>/secret` (docs/api/more-resources.md §7.4): only a Running container's own
 * token, of a user who may read the credential, gets the secret, until it expires.
 */
export async function secret(call: Call): Promise<Reply> {
  const uuid = stringOption(call, 'uuid');
  const rules = { resource: credentials, policy: credentialPolicy };
  const row = await findVisible(call, rules, call.db, uuid, false);
  if (!(await ofRunningContainer(call.db, call.caller.identity.tokenUuid)))
    throw new ForbiddenError(moreMsg.notRunningContainer());
  const { rows } = await call.db.query<Sealed>(
    statement(
      `SELECT secret_ciphertext, expires_at <= clock_timestamp() AS expired
         FROM credentials WHERE uuid = $1`,
      [uuid],
    ),
  );
  const sealed = rows[0];
  if (!sealed || sealed.expired) throw new ForbiddenError(moreMsg.credentialExpired());
  const value =
    sealed.secret_ciphertext === null
      ? null
      : openTokenSecret(
          credentialSecretKey(call.cluster.SystemRootToken),
          uuid,
          sealed.secret_ciphertext,
        );
  // Sealed under another SystemRootToken: the server's configuration, not the request, is at fault.
  if (value === null) throw internalError();
  await recordAccess(call, row);
  return { body: { external_id: row['external_id'], secret: value } };
}
