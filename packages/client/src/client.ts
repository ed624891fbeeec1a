import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import {
  bindApi,
  encodeCall,
  endpointById,
  type ApiObject,
  type ResourceSpec,
  type SvcApi,
} from '@svc/contract';
import { ApiError } from './api-error';

export interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  query?: Record<string, unknown>;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as an application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** Sent as is, with the given content type. */
  raw?: { body: string | Buffer; contentType?: string };
  headers?: Record<string, string>;
  /** null sends no Authorization header. */
  token?: string | null;
}

/** Query values: strings as they are, everything else JSON-encoded (as generic clients do). */
export function encodeQuery(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    search.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function bodyOf(opts: RequestOptions): { body?: string | Buffer; contentType?: string } {
  if (opts.json !== undefined)
    return { body: JSON.stringify(opts.json), contentType: 'application/json' };
  if (opts.form) {
    return {
      body: new URLSearchParams(opts.form).toString(),
      contentType: 'application/x-www-form-urlencoded',
    };
  }
  if (opts.raw) return { body: opts.raw.body, contentType: opts.raw.contentType };
  return {};
}

/**
 * A thin HTTP client for the svc API: raw requests plus typed resource helpers. Without a token
 * argument it uses SVC_API_TOKEN, as command-line clients and services do (auth.md §1).
 */
export class SvcClient {
  private readonly dispatcher: Dispatcher;

  constructor(
    readonly baseUrl: string,
    readonly token: string | null = process.env['SVC_API_TOKEN'] ?? null,
    dispatcher?: Dispatcher,
  ) {
    this.dispatcher = dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  }

  /**
   * The whole API as one typed interface (the same `SvcApi` the server implements): e.g.
   * `await client.api.groups.get({ uuid })`. A refused call throws an ApiError.
   */
  readonly api: SvcApi = bindApi((id, options) => this.call(id, options));

  /** One typed call: encoded as the contract says, answered JSON, errors thrown. */
  async call(endpointId: string, options: Readonly<Record<string, unknown>>): Promise<unknown> {
    const endpoint = endpointById(endpointId);
    if (!endpoint) throw new Error(`no operation ${endpointId}`);
    const { method, path, json } = encodeCall(endpoint, options);
    const answer = await this.request(method, path, json ? { json } : {});
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

  withToken(token: string | null): SvcClient {
    return new SvcClient(this.baseUrl, token, this.dispatcher);
  }

  /** Untyped by default: a raw request can answer anything (use resource() for typed calls). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async request<T = any>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<Answer<T>> {
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
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as T, text };
  }

  /** Typed helpers for the common methods of one resource type. */
  resource<R extends ResourceSpec>(spec: R): ResourceClient<R> {
    return new ResourceClient(this, spec);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

export interface ListAnswer<R extends ResourceSpec> {
  kind: string;
  offset: number;
  limit: number;
  items: Partial<ApiObject<R>>[];
  items_available?: number;
}

export class ResourceClient<R extends ResourceSpec> {
  constructor(
    private readonly client: SvcClient,
    private readonly spec: R,
  ) {}

  private path(uuid?: string): string {
    return `/svc/v1/${this.spec.type}${uuid ? `/${encodeURIComponent(uuid)}` : ''}`;
  }

  create(attrs: Record<string, unknown>, query?: Record<string, unknown>) {
    return this.client.request<ApiObject<R>>('POST', this.path(), {
      json: { [this.spec.singular]: attrs },
      query,
    });
  }

  get(uuid: string, query?: Record<string, unknown>) {
    return this.client.request<ApiObject<R>>('GET', this.path(uuid), { query });
  }

  update(uuid: string, attrs: Record<string, unknown>, query?: Record<string, unknown>) {
    return this.client.request<ApiObject<R>>('PUT', this.path(uuid), {
      json: { [this.spec.singular]: attrs },
      query,
    });
  }

  delete(uuid: string, query?: Record<string, unknown>) {
    return this.client.request<ApiObject<R>>('DELETE', this.path(uuid), { query });
  }

  list(query?: Record<string, unknown>) {
    return this.client.request<ListAnswer<R>>('GET', this.path(), { query });
  }
}
