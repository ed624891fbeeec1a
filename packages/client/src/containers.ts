import type { ApiObject, apiClientAuthorizations, containers } from '@svc/contract';
import type { SvcClient } from './client';
import type { Answer } from './http';

type Container = ApiObject<typeof containers>;
type TokenRecord = ApiObject<typeof apiClientAuthorizations>;

/**
 * The dispatch API of containers.md §12, typed: what a dispatcher and a running container call
 * besides the common methods (`client.resource(containers)`). Reads are tried again on 502/503
 * (the client's retry policy); lock and unlock are not (each changes the container).
 */
export class ContainerDispatch {
  constructor(private readonly client: SvcClient) {}

  private path(uuid: string, op: string): string {
    return `/svc/v1/containers/${encodeURIComponent(uuid)}/${op}`;
  }

  /** Admins: Queued → Locked; the caller's token becomes the lock holder. */
  lock(uuid: string): Promise<Answer<Container>> {
    return this.client.request<Container>('POST', this.path(uuid, 'lock'));
  }

  /** The token that locked it: Locked → Queued (or Cancelled after too many attempts). */
  unlock(uuid: string): Promise<Answer<Container>> {
    return this.client.request<Container>('POST', this.path(uuid, 'unlock'));
  }

  /** The token that locked it: the container's own token record, `api_token` included. */
  auth(uuid: string): Promise<Answer<TokenRecord>> {
    return this.client.request<TokenRecord>('GET', this.path(uuid, 'auth'), { retry: true });
  }

  /** The container's own token: its secret mounts. */
  secretMounts(uuid: string): Promise<Answer<{ secret_mounts: Record<string, unknown> }>> {
    return this.client.request('GET', this.path(uuid, 'secret_mounts'), { retry: true });
  }

  /** The container whose own token the client uses. */
  current(): Promise<Answer<Container>> {
    return this.client.request<Container>('GET', '/svc/v1/containers/current', { retry: true });
  }
}
