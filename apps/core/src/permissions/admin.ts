import { ForbiddenError } from '@svc/errors';
import type { Call } from '../call';

/** Admin-only operations answer 403 "Forbidden" to everyone else. */
export function requireAdmin(call: Call): void {
  if (!call.caller.isAdmin) throw new ForbiddenError();
}
