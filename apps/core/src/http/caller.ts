import { NotLoggedInError } from '@svc/errors';
import type { Identity } from '@svc/ids';
import type { Caller } from '../call';
import { statement, type Db } from '../db/db';

export const systemUserUuid = (clusterId: string): string => `${clusterId}-tpzed-000000000000000`;

/** The caller's current flags, read from this cluster's users (the core is authoritative). */
export async function loadCaller(db: Db, clusterId: string, identity: Identity): Promise<Caller> {
  if (identity.userUuid === systemUserUuid(clusterId)) {
    return { uuid: identity.userUuid, isAdmin: true, isActive: true, identity };
  }
  const { rows } = await db.query<{ is_admin: boolean; is_active: boolean }>(
    statement('SELECT is_admin, is_active FROM users WHERE uuid = $1', [identity.userUuid], 'caller'),
  );
  const row = rows[0];
  if (!row) throw new NotLoggedInError();
  return { uuid: identity.userUuid, isAdmin: row.is_admin, isActive: row.is_active, identity };
}
