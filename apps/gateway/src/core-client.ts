import { Pool, type Dispatcher } from 'undici';
import { BadGatewayError } from '@svc/errors';
import { PROOF_HEADER, randomAlnum, type ProofSigner } from '@svc/ids';
import type { ClusterConfig } from '@svc/config';

/** A cluster core this gateway calls directly (same deployment). */
export interface CoreTarget {
  clusterId: string;
  url: string;
  proofKey: string;
  cluster: Readonly<ClusterConfig>;
}

/** A core's answer, not yet read: the gateway passes it through without re-serialising. */
export type CoreAnswer = Dispatcher.ResponseData;

/**
 * Signed calls from the gateway to one core over a keep-alive undici pool: API calls
 * (`POST /_call/<endpoint id>`, docs/adr/0006) and the `/_internal/` operations (token checks,
 * logins). Every call's proof covers its body and is usable once.
 */
export class CoreClient {
  private readonly pool: Pool;

  constructor(
    readonly target: CoreTarget,
    private readonly signer: ProofSigner,
    timeoutMs = 60_000,
  ) {
    this.pool = new Pool(target.url, {
      connections: 64,
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  /** One API call; the answer streams back unread. */
  call(endpointId: string, body: string, requestId: string): Promise<CoreAnswer> {
    return this.send(`/_call/${endpointId}`, body, requestId);
  }

  /** An internal operation, answered JSON. */
  async post<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
    const res = await this.send(path, JSON.stringify(body), `req-${randomAlnum(20)}`);
    try {
      return { status: res.statusCode, body: (await res.body.json()) as T };
    } catch (err) {
      throw this.failure(err);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async send(path: string, body: string, requestId: string): Promise<CoreAnswer> {
    const proof = this.signer.sign(this.target.proofKey, {
      method: 'POST',
      url: path,
      requestId,
      body,
    });
    try {
      return await this.pool.request({
        method: 'POST',
        path,
        headers: {
          'content-type': 'application/json',
          'x-request-id': requestId,
          [PROOF_HEADER]: proof,
        },
        body,
      });
    } catch (err) {
      throw this.failure(err);
    }
  }

  private failure(err: unknown): BadGatewayError {
    return new BadGatewayError(
      `error contacting cluster ${this.target.clusterId}: ${(err as Error).message}`,
    );
  }
}
