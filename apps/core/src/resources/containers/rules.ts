import { containers, builtInUuids } from '@svc/contract';
import { adminOnlyCreate, adminOnlyWrite } from '../common/authorize';
import type { ResourceRules } from '../common/rules';

/** Containers belong to the system user; only admins create, change or delete them here. */
export const containerRules: ResourceRules = {
  resource: containers,
  authorizeCreate: adminOnlyCreate,
  authorizeWrite: adminOnlyWrite,
  async prepareCreate(ctx, row) {
    row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
  },
  async prepareUpdate(ctx, _current, next) {
    next['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
  },
};
