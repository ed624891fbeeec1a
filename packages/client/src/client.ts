import type { Dispatcher } from 'undici';
import { ApiClient } from './api-client';
import { BlockClient } from './blocks';
import { Agent } from './transport';
import { UndiciTransport } from './undici-transport';
import { resolveSettings, type ClientOptions, type Settings } from './settings';

function defaultDispatcher(insecure: boolean): Dispatcher {
  return new Agent({
    keepAliveTimeout: 10_000,
    connections: 64,
    ...(insecure ? { connect: { rejectUnauthorized: false } } : {}),
  });
}

/**
 * The svc API over HTTP from Node.js (undici). `client.api` is the typed interface
 * (`client.api.groups.get({uuid})`, `client.api.collections.listAll({filters})`); refused calls
 * throw an ApiError. Host and token default to SVC_API_HOST and SVC_API_TOKEN (auth.md §1).
 */
export class SvcClient extends ApiClient {
  private readonly dispatcher: Dispatcher;
  private readonly options: ClientOptions;

  constructor(options?: ClientOptions);
  /** The form the tests use: a base URL, a token (default SVC_API_TOKEN), a shared dispatcher. */
  constructor(baseUrl: string, token?: string | null, dispatcher?: Dispatcher);
  constructor(first: ClientOptions | string = {}, token?: string | null, dispatcher?: Dispatcher) {
    const options: ClientOptions =
      typeof first === 'string'
        ? { host: first, ...(token !== undefined ? { token } : {}) }
        : first;
    const settings: Settings = resolveSettings(options);
    const chosen = dispatcher ?? options.dispatcher ?? defaultDispatcher(settings.insecure);
    super(settings, new UndiciTransport(chosen));
    this.options = options;
    this.dispatcher = chosen;
  }

  protected override derive(token: string | null): SvcClient {
    return new SvcClient({
      ...this.options,
      host: this.baseUrl,
      token,
      dispatcher: this.dispatcher,
    });
  }

  /** The block service at this client's host, with its token (storage.md §4). */
  get blocks(): BlockClient {
    return new BlockClient(this.baseUrl, this.token, this.dispatcher);
  }
}
