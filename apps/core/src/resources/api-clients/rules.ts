import { apiClients, isBuiltIn } from '@svc/contract';
import { ForbiddenError } from '@svc/errors';
import type { ResourceRules } from '../common/rules';
import { statement } from '../../db/db';
import { adminWritesPolicy } from '../../permissions/policies';

/**
 * Any valid token lists and reads clients; admins write them; the built-in one never changes.
 * Deleting a client deletes its tokens (other-resources.md §6).
 */
export const apiClientRules: ResourceRules = {
  resource: apiClients,
  policy: {
    ...adminWritesPolicy,
    async write(call, tx, row, attrs, op) {
      await adminWritesPolicy.write(call, tx, row, attrs, op);
      if (isBuiltIn(call.cluster.ClusterID, String(row['uuid']))) throw new ForbiddenError();
    },
  },
  async afterRemove(_call, row, tx) {
    await tx.query(
      statement('DELETE FROM api_client_authorizations WHERE api_client_uuid = $1', [row['uuid']]),
    );
  },
};
