import { Pool } from 'undici';
import {
  ApiError,
  BadGatewayError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '@svc/errors';
import { PROOF_HEADER, randomAlnum, type ProofSigner } from '@svc/ids';
import type { ClusterConfig } from '@svc/config';
import { AnswerHandler, type CoreAnswer } from './core-answer';

export type { CoreAnswer } from './core-answer';

/**
 * A core's 503 or 429 (its database out, an object busy, a token over its limit), to be passed
 * on unchanged, never as a 502 (docs/api/requests-and-errors.md §7). The core logged it as it should; the
 * gateway does not again.
 */
export function coreRefusal(status: number, body: unknown): ApiError | null {
  if (status !== 503 && status !== 429) return null;
  const errors = (body as { errors?: unknown } | null)?.errors;
  const message = Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : undefined;
  return status === 503
    ? new ServiceUnavailableError(message, false)
    : new TooManyRequestsError(1, message);
}

/** A cluster core this gateway calls directly (same deployment). */
export interface CoreTarget {
  clusterId: string;
  url: string;
  proofKey: string;
  cluster: Readonly<ClusterConfig>;
}

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

  /**
   * An internal operation, answered JSON. A 4xx is the operation's answer ("not valid"); a 5xx
   * means the core could not tell (its database is down, 503): that is thrown, so that a token
   * that cannot be checked is never taken for one that is invalid (401).
   */
  async post<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
    const res = await this.send(path, JSON.stringify(body), `req-${randomAlnum(20)}`);
    let answer: unknown;
    try {
      answer = await res.body.json();
    } catch (err) {
      throw this.failure(err);
    }
    const refusal = coreRefusal(res.statusCode, answer);
    if (refusal) throw refusal;
    if (res.statusCode >= 500) {
      throw new BadGatewayError(
        `error contacting cluster ${this.target.clusterId}: ${res.statusCode}`,
      );
    }
    return { status: res.statusCode, body: answer as T };
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
      return await new Promise<CoreAnswer>((resolve, reject) => {
        this.pool.dispatch(
          {
            method: 'POST',
            path,
            headers: {
              'content-type': 'application/json',
              'x-request-id': requestId,
              [PROOF_HEADER]: proof,
            },
            body,
          },
          new AnswerHandler(resolve, reject),
        );
      });
    } catch (err) {
      throw this.failure(err);
    }
  }

  /** The core did not answer: a 503 like its database being down, this cluster is unavailable. */
  private failure(err: unknown): ApiError {
    if (err instanceof ApiError) return err;
    return new BadGatewayError(
      `error contacting cluster ${this.target.clusterId}: ${(err as Error).message}`,
    );
  }
}
