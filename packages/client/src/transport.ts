import type { Agent as UndiciAgent, Dispatcher } from 'undici';

/*
 * undici's Agent and request without its index module: the index also loads fetch, its caches,
 * mocks and WebSocket client, a third of the `svc` command's start-up (150 of 450 ms on an idle
 * machine, 500 ms on a loaded one). Every request here names its dispatcher, so nothing the
 * index sets up (the global dispatcher, the methods it adds to Dispatcher) is needed. These two
 * files are part of undici's published package (it has no "exports" map); client.test.ts
 * exercises both.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the two modules above, by path */
export const Agent = require('undici/lib/dispatcher/agent') as typeof UndiciAgent;
const apiRequest = require('undici/lib/api/api-request') as (
  this: Dispatcher,
  opts: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
/* eslint-enable @typescript-eslint/no-require-imports */

export interface RequestOptions {
  method: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  body?: Dispatcher.DispatchOptions['body'];
  dispatcher: Dispatcher;
}

/** undici's `request(url, options)`, on the given dispatcher. */
export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = opts;
  const u = new URL(url);
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: u.origin,
    path: `${u.pathname}${u.search}`,
  });
}
