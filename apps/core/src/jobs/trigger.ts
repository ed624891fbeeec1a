import type { Call, Reply } from '../call';
import { servicesOf } from '../cluster-services';
import { requireAdmin } from '../permissions/admin';
import { TRASH_SWEEP } from './index';

/**
 * `POST /sys/trash_sweep` (docs/api/more-resources.md §12): admins run one pass of the sweep now and get
 * 204 once it is done; a pass in progress is waited for first.
 */
export async function triggerTrashSweep(call: Call): Promise<Reply> {
  requireAdmin(call);
  const jobs = servicesOf(call.cluster)?.jobs;
  if (!jobs) throw new Error('no job runner for this cluster');
  await jobs.runOwnPass(TRASH_SWEEP);
  return { status: 204, body: null };
}
