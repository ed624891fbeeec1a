import type { Identity } from '@svc/ids';
import type { Caller } from '../call';

/**
 * The caller as the gateway vouched for it: the token's cluster checked the token and read the
 * user's flags, and the gateway signed the result. Nothing is looked up again here.
 */
export function callerOf(identity: Identity): Caller {
  return {
    uuid: identity.userUuid,
    isAdmin: identity.isAdmin,
    isActive: identity.isActive,
    identity,
  };
}
