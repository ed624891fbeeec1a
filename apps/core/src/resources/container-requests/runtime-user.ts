import { containerMsg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { parseV2Token } from '@svc/ids';
import { sql, toQuery, type Sql } from '@svc/list-engine';
import type { Call } from '../../call';
import type { Db } from '../../db/db';
import { validateToken } from '../../auth/validate-token';
import {
  notHiddenByOwner,
  notTrashedItself,
  ownedObjectVisible,
} from '../../permissions/visibility';

/**
 * The runtime user of a commit (containers.md §6 step 1) and what it can read (step 2): the
 * user of `runtime_token` with that token's scopes, else the committing user with the scopes
 * of the committing token.
 */
export interface RuntimeUser {
  uuid: string;
  scopes: string[];
  isAdmin: boolean;
}

/** A runtime_token must be a valid, unexpired v2 token of this cluster (§2). */
export async function runtimeTokenUser(call: Call, tx: Db, token: string): Promise<RuntimeUser> {
  const valid = parseV2Token(token)
    ? await validateToken(tx, call.cluster, { token, remote: null })
    : null;
  if (!valid) throw new UnprocessableError(containerMsg.runtimeTokenInvalid());
  const { identity } = valid;
  return { uuid: identity.userUuid, scopes: identity.scopes, isAdmin: identity.isAdmin };
}

export async function runtimeUserOf(
  call: Call,
  tx: Db,
  runtimeToken: unknown,
): Promise<RuntimeUser> {
  if (typeof runtimeToken === 'string' && runtimeToken !== '') {
    return runtimeTokenUser(call, tx, runtimeToken);
  }
  const { caller } = call;
  return { uuid: caller.uuid, scopes: caller.identity.scopes, isAdmin: caller.isAdmin };
}

/** Readable by the runtime user, neither trashed nor beneath a trashed project. */
function readableCollection(user: RuntimeUser, condition: Sql): Sql {
  const visible = user.isAdmin ? sql`TRUE` : ownedObjectVisible(user.uuid, 'collections');
  return sql`SELECT "portable_data_hash" FROM "collections"
              WHERE ${condition} AND ${notTrashedItself('collections')}
                AND ${notHiddenByOwner('collections')} AND ${visible} LIMIT 1`;
}

export async function readablePdh(tx: Db, user: RuntimeUser, pdh: string): Promise<boolean> {
  const { rows } = await tx.query(
    toQuery(readableCollection(user, sql`"portable_data_hash" = ${pdh}`)),
  );
  return rows.length > 0;
}

/** The PDH of a readable collection given by uuid, or null. */
export async function readableCollectionPdh(
  tx: Db,
  user: RuntimeUser,
  uuid: string,
): Promise<string | null> {
  const { rows } = await tx.query<{ portable_data_hash: string }>(
    toQuery(readableCollection(user, sql`"uuid" = ${uuid}`)),
  );
  return rows[0]?.portable_data_hash ?? null;
}
