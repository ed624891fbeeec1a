import type { ServerResponse } from 'node:http';

/** What a request's log line and metrics say beyond method and status; set by the handlers. */
export interface RequestFacts {
  /** The route template (`/svc/v1/collections/{uuid}`), never the raw path. */
  route?: string;
  user?: string;
  cluster?: string;
  /** The error token a 5xx answer carried. */
  errorToken?: string;
  /**
   * A list answered with no items: its line is logged at debug level, so that pollers (the
   * dispatcher looks at the queue twice a second) make no noise while nothing happens.
   */
  quiet?: boolean;
}

/** Header a core sets on an empty list answer, so the gateway's line is quiet too. */
export const EMPTY_LIST_HEADER = 'x-svc-empty-list';

/** Kept on the response itself: a WeakMap lookup per note cost more than the note. */
const FACTS = Symbol('requestFacts');
type Noted = ServerResponse & { [FACTS]?: RequestFacts };

export function noteRequest(res: ServerResponse, more: RequestFacts): void {
  const known = (res as Noted)[FACTS];
  if (known) Object.assign(known, more);
  else (res as Noted)[FACTS] = { ...more };
}

export const factsOf = (res: ServerResponse): RequestFacts => (res as Noted)[FACTS] ?? {};

const UUID_SEGMENT = /^[0-9a-z]{5}-[0-9a-z]{5}-[0-9a-z]{15}$/;
const HASH_SEGMENT = /^[0-9a-f]{32}(\+.*)?$/;

/**
 * A path without its identifiers, for requests no handler named a route for: uuids, block
 * hashes and collection paths become placeholders, so labels stay few and ids stay out of logs.
 */
export function routeOfPath(path: string): string {
  const pathname = path.split('?')[0] ?? '/';
  if (pathname.startsWith('/c=')) return '/c={collection}/{path}';
  return pathname
    .split('/')
    .map((s) => (UUID_SEGMENT.test(s) ? '{uuid}' : HASH_SEGMENT.test(s) ? '{locator}' : s))
    .join('/');
}
