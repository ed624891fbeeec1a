import { apiClients, isBuiltIn } from '@svc/contract';
import { ForbiddenError } from '@svc/errors';
import type { ResourceRules } from '../common/rules';
import { adminWritesPolicy } from '../../permissions/policies';

/** Any valid token lists and reads clients; admins write them; the built-in one never changes. */
export const apiClientRules: ResourceRules = {
  resource: apiClients,
  policy: {
    ...adminWritesPolicy,
    async write(call, tx, row, attrs, op) {
      await adminWritesPolicy.write(call, tx, row, attrs, op);
      if (isBuiltIn(call.cluster.ClusterID, String(row['uuid']))) throw new ForbiddenError();
    },
  },
};
