import { apiClients, isBuiltIn } from '@svc/contract';
import { ForbiddenError } from '@svc/errors';
import { requireAdmin, adminOnlyCreate } from '../common/authorize';
import type { ResourceRules } from '../common/rules';

/** Admins create, update and delete clients; the built-in one never changes. */
export const apiClientRules: ResourceRules = {
  resource: apiClients,
  authorizeCreate: adminOnlyCreate,
  async authorizeWrite(call, row) {
    requireAdmin(call);
    if (isBuiltIn(call.cluster.ClusterID, String(row['uuid']))) throw new ForbiddenError();
  },
};
