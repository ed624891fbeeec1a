import { builtInUuids, containers } from '@svc/contract';
import { sql } from '@svc/list-engine';
import type { ResourceRules } from '../common/rules';
import { adminWritesPolicy } from '../../permissions/policies';
import { col } from '../../permissions/caller-set';
import { notHiddenByOwner, ownedObjectVisible } from '../../permissions/visibility';

/** Readable by whoever can read a request that points at it (permissions.md §7 rule 4). */
function containerVisible(user: string) {
  return sql`EXISTS (SELECT 1 FROM container_requests
                      WHERE container_requests.container_uuid = ${col('containers', 'uuid')}
                        AND ${ownedObjectVisible(user, 'container_requests')}
                        AND ${notHiddenByOwner('container_requests')})`;
}

/** Containers belong to the system user; only admins create, change or delete them here. */
export const containerRules: ResourceRules = {
  resource: containers,
  policy: {
    ...adminWritesPolicy,
    visible: (call) => (call.caller.isAdmin ? [] : [containerVisible(call.caller.uuid)]),
  },
  async prepareCreate(ctx, row) {
    row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
  },
  async prepareUpdate(ctx, _current, next) {
    next['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
  },
};
