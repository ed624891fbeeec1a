/**
 * @svc/client for browsers: the same typed API over the platform's `fetch`, without undici or
 * Node.js modules (bundlers pick this file through the package's "browser" condition). The
 * block service client, which hashes with node:crypto, is Node.js only.
 */
import { ApiClient } from './api-client';
import { fetchTransport } from './fetch-transport';
import { resolveSettings, type RetryPolicy } from './settings';

export interface BrowserClientOptions {
  /** The API's base URL, e.g. `window.location.origin`. */
  host: string;
  /** The API token; null (the default) sends none. */
  token?: string | null;
  /** Retries of idempotent calls on 502/503; false turns them off. */
  retry?: Partial<RetryPolicy> | false;
  /** Another fetch (tests). */
  fetch?: typeof fetch;
}

export class SvcClient extends ApiClient {
  constructor(private readonly browserOptions: BrowserClientOptions) {
    const { fetch: fetchFn, ...rest } = browserOptions;
    super(
      resolveSettings({ token: null, ...rest }, {}),
      fetchTransport(fetchFn ?? globalThis.fetch.bind(globalThis)),
    );
  }

  protected override derive(token: string | null): SvcClient {
    return new SvcClient({ ...this.browserOptions, host: this.baseUrl, token });
  }
}

export { ApiClient } from './api-client';
export { encodeQuery, type Answer, type RequestOptions, type Requester } from './http';
export * from './api-error';
export type { Exchange, Reply, Transport } from './exchange';
export { fetchTransport } from './fetch-transport';
export type { ClientApi, ListAllItem, ListAllOptions, ListEndpointId } from './client-api';
export type { PagingOptions, Progress } from './paging';
export { DEFAULT_RETRY, baseUrlOf, type RetryPolicy } from './settings';
