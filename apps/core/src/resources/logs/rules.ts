import { logs } from '@svc/contract';
import { adminOnlyCreate, adminOnlyWrite } from '../common/authorize';
import type { ResourceRules } from '../common/rules';

/** Only admins write logs (other-resources.md §4). */
export const logRules: ResourceRules = {
  resource: logs,
  authorizeCreate: adminOnlyCreate,
  authorizeWrite: adminOnlyWrite,
  async prepareCreate(ctx, row) {
    row['event_at'] = ctx.input['event_at'] ?? ctx.now;
  },
};
