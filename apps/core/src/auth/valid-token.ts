import type { Identity } from '@svc/ids';

/** A token that checked out: who it is, and until when the answer may be trusted. */
export interface ValidToken {
  identity: Identity;
  /** When the record stops being valid, if ever (the gateway caches no longer). */
  expiresAt: string | null;
  /** A bare secret of a local record as `v2/<uuid>/<secret>`: what gets salted for remotes. */
  v2Form?: string;
}
