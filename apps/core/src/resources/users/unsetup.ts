import { builtInUuids, moreMsg } from '@svc/contract';
import { NotFoundError, UnprocessableError } from '@svc/errors';
import { stringOption, type Call, type Reply } from '../../call';
import { statement } from '../../db/db';
import { requireAdmin } from '../../permissions/admin';
import {
  deleteOutgoingPermissionLinks,
  deletePermissionLinks,
} from '../../permissions/graph-writes';
import { readObject } from '../common/crud';
import { nowCanonical } from '../common/row';
import { userRules } from './rules';

/**
 * `POST /users/<uuid>/unsetup` (docs/api/more-resources.md §5.5), in one transaction: the user's
 * permission and signature links, tokens and SSH keys go, and the user is left inactive, not an
 * admin, with empty prefs. Its other objects stay.
 */
export async function unsetup(call: Call): Promise<Reply> {
  requireAdmin(call);
  const uuid = stringOption(call, 'uuid');
  const c = call.cluster.ClusterID;
  const { allUsersGroup, systemUser } = builtInUuids(c);
  await call.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      statement(
        'SELECT 1 FROM users WHERE uuid = $1 AND redirect_to_user_uuid IS NULL FOR UPDATE',
        [uuid],
      ),
    );
    if (rows.length === 0) throw new NotFoundError();
    if (uuid === systemUser) throw new UnprocessableError(moreMsg.rootCannotBeDeactivated());
    await deleteOutgoingPermissionLinks(tx, c, uuid);
    await deletePermissionLinks(tx, c, allUsersGroup, uuid);
    await tx.query(
      statement(`DELETE FROM links WHERE link_class = 'signature' AND tail_uuid = $1`, [uuid]),
    );
    await tx.query(
      statement('DELETE FROM api_client_authorizations WHERE owner_uuid = $1', [uuid]),
    );
    await tx.query(
      statement('DELETE FROM authorized_keys WHERE owner_uuid = $1 OR authorized_user_uuid = $1', [
        uuid,
      ]),
    );
    await tx.query(
      statement(
        `UPDATE users SET prefs = '{}'::jsonb, is_admin = false, is_active = false,
            modified_at = $2::text::timestamptz, modified_by_user_uuid = $3 WHERE uuid = $1`,
        [uuid, nowCanonical(), call.caller.uuid],
      ),
    );
  });
  return readObject({ ...call, options: {} }, userRules, uuid);
}
