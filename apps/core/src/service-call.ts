import { endpointById, rootIdentity, type EndpointId, type OptionsOfId } from '@svc/contract';
import type { Identity } from '@svc/ids';
import type { Call } from './call';
import type { CoreDeps } from './core-deps';
import type { Db } from './db/db';

/**
 * A call the server makes on its own behalf (as the system user unless told otherwise), so that
 * server-side work goes through the same resource rules as client requests. With `tx`, every
 * write joins that transaction. Calls that share `locals` share what their hooks queue (mail
 * to send once the transaction is committed).
 */
export function serviceCall<Id extends EndpointId>(
  deps: Pick<CoreDeps, 'cluster'>,
  tx: Db,
  id: Id,
  options: OptionsOfId<Id>,
  identity: Identity = rootIdentity(deps.cluster.ClusterID),
  locals: Record<string, unknown> = {},
): Call {
  return {
    cluster: deps.cluster,
    db: tx,
    caller: {
      uuid: identity.userUuid,
      isAdmin: identity.isAdmin,
      isActive: identity.isActive,
      identity,
    },
    endpoint: endpointById(id)!,
    options: options as Readonly<Record<string, unknown>>,
    requestId: 'server',
    locals,
  };
}
