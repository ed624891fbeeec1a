import type { ServerResponse } from 'node:http';

/** What a request's log line and metrics say beyond method and status; set by the handlers. */
export interface RequestFacts {
  /**
   * The route template (`/svc/v1/collections/{uuid}`) the handler matched, never the raw path;
   * unset: UNMATCHED_ROUTE.
   */
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

/**
 * The route label of a request no handler named a route for (an unknown path): never the path
 * itself, which may carry anything, a token included, in any spelling.
 */
export const UNMATCHED_ROUTE = '{unmatched}';
