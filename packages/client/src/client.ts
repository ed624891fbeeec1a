import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { Agent, request as undiciRequest } from './transport';
import { bindApi, encodeCall, endpointById, type ResourceSpec } from '@svc/contract';
import { ApiError } from './api-error';
import {
  withListAll,
  type ClientApi,
  type ListAllItem,
  type ListAllOptions,
  type ListEndpointId,
} from './client-api';
import { planWalk, walkList, type ListCall, type PagingOptions } from './paging';
import { bodyOf, encodeQuery, parseBody, type Answer, type RequestOptions } from './http';
import { ResourceClient } from './resource-client';
import { BlockClient } from './blocks';
import {
  isIdempotent,
  isRetryableStatus,
  resolveSettings,
  retryDelayMs,
  type ClientOptions,
  type RetryPolicy,
} from './settings';

/**
 * The svc API over HTTP. `client.api` is the typed interface (`client.api.groups.get({uuid})`,
 * `client.api.collections.listAll({filters})`); refused calls throw an ApiError. Host and token
 * default to SVC_API_HOST and SVC_API_TOKEN (auth.md §1).
 */
export class SvcClient {
  readonly baseUrl: string;
  readonly token: string | null;
  readonly retry: RetryPolicy;
  private readonly dispatcher: Dispatcher;
  private readonly options: ClientOptions;

  constructor(options?: ClientOptions);
  /** The form the tests use: a base URL, a token (default SVC_API_TOKEN), a shared dispatcher. */
  constructor(baseUrl: string, token?: string | null, dispatcher?: Dispatcher);
  constructor(first: ClientOptions | string = {}, token?: string | null, dispatcher?: Dispatcher) {
    this.options =
      typeof first === 'string'
        ? { host: first, ...(token !== undefined ? { token } : {}) }
        : first;
    const settings = resolveSettings(this.options);
    this.baseUrl = settings.baseUrl;
    this.token = settings.token;
    this.retry = settings.retry;
    this.dispatcher =
      dispatcher ??
      this.options.dispatcher ??
      new Agent({
        keepAliveTimeout: 10_000,
        connections: 64,
        ...(settings.insecure ? { connect: { rejectUnauthorized: false } } : {}),
      });
  }

  /**
   * The whole API as one typed interface (the `SvcApi` the server implements, plus `listAll`):
   * e.g. `await client.api.groups.get({ uuid })`. A refused call throws an ApiError.
   */
  readonly api: ClientApi = withListAll(
    bindApi((id, options) => this.call(id, options)),
    (id, options, paging) => this.listAll(id as ListEndpointId, options as never, paging),
  );

  /** One call by endpoint id: encoded as the contract says, answered JSON, errors thrown. */
  async call(
    endpointId: string,
    options: Readonly<Record<string, unknown>> = {},
  ): Promise<unknown> {
    const endpoint = endpointById(endpointId);
    if (!endpoint) throw new Error(`no operation ${endpointId}`);
    const { method, path, json } = encodeCall(endpoint, options);
    const answer = await this.request(method, path, { ...(json ? { json } : {}), retry: true });
    if (answer.status >= 300) {
      const requestId = answer.headers['x-request-id'];
      throw ApiError.from(
        answer.status,
        answer.body,
        typeof requestId === 'string' ? requestId : null,
      );
    }
    return answer.body;
  }

  /**
   * Every item of a list operation, fetched page by page as the loop asks for them. Lists of one
   * resource ordered by uuid, or by one comparable attribute then uuid (the default order is
   * `modified_at desc, uuid asc`), are walked by keyset: items added meanwhile never make an
   * item appear twice or go missing. Other orders are walked by offset.
   */
  listAll<Id extends ListEndpointId>(
    endpointId: Id,
    options: ListAllOptions<Id> = {} as ListAllOptions<Id>,
    paging: PagingOptions = {},
  ): AsyncGenerator<ListAllItem<Id>> {
    const endpoint = endpointById(endpointId);
    if (!endpoint) throw new Error(`no operation ${endpointId}`);
    const opts = options as Record<string, unknown>;
    const list: ListCall = (o) => this.call(endpointId, o) as ReturnType<ListCall>;
    const withPageSize = { limit: 1000, ...opts };
    return walkList(list, planWalk(endpoint, opts), withPageSize, paging) as AsyncGenerator<
      ListAllItem<Id>
    >;
  }

  withToken(token: string | null): SvcClient {
    return new SvcClient({
      ...this.options,
      host: this.baseUrl,
      token,
      dispatcher: this.dispatcher,
    });
  }

  /** Untyped by default: a raw request can answer anything (use `api` for typed calls). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async request<T = any>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<Answer<T>> {
    const tries = opts.retry && isIdempotent(method) ? this.retry.attempts : 1;
    for (let n = 1; ; n++) {
      const answer = await this.send<T>(method, path, opts);
      if (n >= tries || !isRetryableStatus(answer.status)) return answer;
      const retryAfter = answer.headers['retry-after'];
      await sleep(retryDelayMs(this.retry, n, typeof retryAfter === 'string' ? retryAfter : null));
    }
  }

  private async send<T>(method: string, path: string, opts: RequestOptions): Promise<Answer<T>> {
    const { body, contentType } = bodyOf(opts);
    const token = opts.token === undefined ? this.token : opts.token;
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(opts.headers ?? {}),
    };
    const res = await undiciRequest(`${this.baseUrl}${path}${encodeQuery(opts.query)}`, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher: this.dispatcher,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: parseBody(text) as T, text };
  }

  /** Raw requests for one resource type's standard methods (status and body, never thrown). */
  resource<R extends ResourceSpec>(spec: R): ResourceClient<R> {
    return new ResourceClient(this, spec);
  }

  /** The block service at this client's host, with its token (storage.md §4). */
  get blocks(): BlockClient {
    return new BlockClient(this.baseUrl, this.token, this.dispatcher);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
