import type { Container, ContainerRequest } from './types';

/** What a person wants to know of a process: its request's state read with its container's. */
export function processStatus(cr: ContainerRequest, c: Container | null | undefined): string {
  if (cr.state === 'Uncommitted') return 'Draft';
  if (cr.state === 'Committed' && cr.priority === 0)
    return c?.state === 'Running' ? 'Cancelling' : 'Cancelled';
  if (!c) return cr.state === 'Final' ? 'Cancelled' : 'Queued';
  if (c.state === 'Complete') return c.exit_code === 0 ? 'Completed' : 'Failed';
  return c.state; // Queued, Locked, Running, Cancelled
}
