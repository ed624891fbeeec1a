import type { ApiObject, ResourceSpec } from '@svc/contract';
import type { Requester } from './http';

export interface ListAnswer<R extends ResourceSpec> {
  kind: string;
  offset: number;
  limit: number;
  items: Partial<ApiObject<R>>[];
  items_available?: number;
}

/**
 * Raw requests for the standard methods of one resource type, answering status and body
 * instead of throwing: for tests that assert on statuses. Programs use `client.api`.
 */
export class ResourceClient<R extends ResourceSpec> {
  constructor(
    private readonly client: Requester,
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
