import { Pool } from 'undici';
import { BadGatewayError } from '@svc/errors';
import {
  encodeIdentity,
  IDENTITY_HEADER,
  PROOF_HEADER,
  randomAlnum,
  signProof,
  type Identity,
} from '@svc/ids';
import type { ClusterConfig } from '@svc/config';

/** A cluster core this gateway forwards to directly (same deployment). */
export interface CoreTarget {
  clusterId: string;
  url: string;
  proofKey: string;
  cluster: Readonly<ClusterConfig>;
}

/**
 * Signed calls from the gateway to a core's `/_internal/` operations (token checks, logins).
 * One keep-alive pool per core.
 */
export class CoreClient {
  private readonly pool: Pool;

  constructor(
    private readonly target: CoreTarget,
    private readonly identity: Identity,
  ) {
    this.pool = new Pool(target.url, { connections: 32, keepAliveTimeout: 30_000 });
  }

  async post<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
    const identityHeader = encodeIdentity(this.identity);
    const requestId = `req-${randomAlnum(20)}`;
    const proof = signProof(this.target.proofKey, {
      method: 'POST',
      url: path,
      identity: identityHeader,
      requestId,
    });
    try {
      const res = await this.pool.request({
        method: 'POST',
        path,
        headers: {
          'content-type': 'application/json',
          'x-request-id': requestId,
          [IDENTITY_HEADER]: identityHeader,
          [PROOF_HEADER]: proof,
        },
        body: JSON.stringify(body),
      });
      return { status: res.statusCode, body: (await res.body.json()) as T };
    } catch (err) {
      throw new BadGatewayError(
        `error contacting cluster ${this.target.clusterId}: ${(err as Error).message}`,
      );
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
