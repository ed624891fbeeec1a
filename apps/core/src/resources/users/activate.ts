import { moreMsg } from '@svc/contract';
import { ForbiddenError, NotFoundError, UnprocessableError } from '@svc/errors';
import { stringOption, type Call, type Reply } from '../../call';
import { statement } from '../../db/db';
import { serviceCall } from '../../service-call';
import { unsignedAgreements } from '../common/agreements';
import { crudHandlers, readObject } from '../common/crud';
import { userRules } from './rules';

interface UserState {
  is_active: boolean;
  invited: boolean;
}

async function stateOf(call: Call, uuid: string): Promise<UserState | null> {
  const { rows } = await call.db.query<UserState>(
    statement(
      `SELECT is_active, EXISTS (SELECT 1 FROM links l WHERE l.link_class = 'permission'
          AND l.tail_uuid = u.uuid AND l.head_uuid = $2) AS invited
         FROM users u WHERE u.uuid = $1 AND u.redirect_to_user_uuid IS NULL`,
      [uuid, `${call.cluster.ClusterID}-j7d0g-fffffffffffffff`],
    ),
  );
  return rows[0] ?? null;
}

/**
 * `POST /users/<uuid>/activate` (docs/api/more-resources.md §5.3): a user activates itself once invited
 * and every user agreement is signed; admins may activate anyone who signed them. Activation
 * is the ordinary update of is_active, so setup and membership follow as for any activation.
 */
export async function activate(call: Call): Promise<Reply> {
  const uuid = stringOption(call, 'uuid');
  const state = await stateOf(call, uuid);
  if (!state) throw new NotFoundError();
  const { isAdmin } = call.caller;
  if (!isAdmin && uuid !== call.caller.uuid) throw new ForbiddenError();
  if (!state.is_active) {
    const invited = state.invited || call.cluster.Users.NewUsersAreActive;
    if (!isAdmin && !invited) throw new UnprocessableError(moreMsg.notInvited());
    const unsigned = await unsignedAgreements(call.db, call.cluster.ClusterID, uuid);
    if (unsigned.length > 0) throw new ForbiddenError(moreMsg.unsignedAgreements(unsigned));
    await call.db.transaction((tx) =>
      crudHandlers(userRules).update!(
        serviceCall(
          call,
          tx,
          'svc.users.update',
          {
            uuid,
            attributes: { is_active: true },
          },
          undefined,
          call.locals,
        ),
      ),
    );
  }
  return readObject({ ...call, options: {} }, userRules, uuid);
}
