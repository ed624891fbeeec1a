import { containerRequests } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { ResourceRules } from '../common/rules';
import { ownedPolicy } from '../../permissions/policies';

export const containerRequestRules: ResourceRules = {
  resource: containerRequests,
  policy: ownedPolicy('container_requests'),
  async prepareCreate(ctx, row) {
    if (ctx.input['requesting_container_uuid'] != null) {
      throw new UnprocessableError('requesting_container_uuid cannot be set by clients');
    }
    row['container_count_max'] =
      ctx.input['container_count_max'] ?? ctx.call.cluster.Containers.MaxRetryAttempts;
  },
};
