import { bindApi, encodeCall, endpointById, type ResourceSpec } from '@svc/contract';
import { ApiError } from './api-error';
import {
  withListAll,
  type ClientApi,
  type ListAllItem,
  type ListAllOptions,
  type ListEndpointId,
} from './client-api';
import { sleep, type Transport } from './exchange';
import { bodyOf, encodeQuery, parseBody, type Answer, type RequestOptions } from './http';
import { planWalk, walkList, type ListCall, type PagingOptions } from './paging';
import { ResourceClient } from './resource-client';
import {
  isIdempotent,
  isRetryableStatus,
  retryDelayMs,
  type RetryPolicy,
  type Settings,
} from './settings';

/**
 * The svc API over any transport: `client.api` is the typed interface
 * (`client.api.groups.get({uuid})`, `client.api.collections.listAll({filters})`); refused calls
 * throw an ApiError. Node.js programs use `SvcClient` (undici), browsers the `fetch` build.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly token: string | null;
  readonly retry: RetryPolicy;

  constructor(
    protected readonly settings: Settings,
    protected readonly transport: Transport,
  ) {
    this.baseUrl = settings.baseUrl;
    this.token = settings.token;
    this.retry = settings.retry;
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

  /** The same client (same transport and connections) with another token. */
  withToken(token: string | null): this {
    return this.derive(token) as this;
  }

  protected derive(token: string | null): ApiClient {
    return new ApiClient({ ...this.settings, token }, this.transport);
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
    const reply = await this.transport.send({
      method,
      url: `${this.baseUrl}${path}${encodeQuery(opts.query)}`,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    return { ...reply, body: parseBody(reply.text) as T };
  }

  /** Raw requests for one resource type's standard methods (status and body, never thrown). */
  resource<R extends ResourceSpec>(spec: R): ResourceClient<R> {
    return new ResourceClient(this, spec);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
