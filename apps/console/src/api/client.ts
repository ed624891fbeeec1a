import { SvcClient } from '@svc/client';

/** The API at the origin that served the console (the gateway), with the session's token. */
export const clientFor = (token: string | null): SvcClient =>
  new SvcClient({ host: window.location.origin, token, retry: { attempts: 3 } });

export type { SvcClient };
