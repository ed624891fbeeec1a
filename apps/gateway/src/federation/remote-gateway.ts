import { Agent, request, type Dispatcher } from 'undici';
import { BadGatewayError } from '@svc/errors';
import type { RemoteClusterConfig } from '@svc/config';

/** A JSON answer from another deployment's gateway. */
export interface RemoteAnswer {
  status: number;
  body: unknown;
  /** Set when the body was not JSON. */
  text?: string;
}

/**
 * Calls to another deployment's gateway (`<Scheme>://<Host>`), each bounded by
 * `Gateway.RemoteTimeout`; `Insecure` skips TLS verification for that cluster only.
 * A call that gets no answer throws with the transport's reason.
 */
export class RemoteGateway {
  private readonly agent: Dispatcher;
  readonly url: string;

  constructor(
    readonly clusterId: string,
    entry: RemoteClusterConfig,
    readonly timeoutMs: number,
  ) {
    this.url = `${entry.Scheme}://${entry.Host}`;
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connect: { rejectUnauthorized: !entry.Insecure, timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  async send(
    method: string,
    path: string,
    token: string | null,
    body?: { form: Record<string, string> } | { json: Record<string, unknown> },
    requestId?: string,
  ): Promise<RemoteAnswer> {
    const type = !body
      ? null
      : 'form' in body
        ? 'application/x-www-form-urlencoded'
        : 'application/json';
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(requestId ? { 'x-request-id': requestId } : {}),
      ...(type ? { 'content-type': type } : {}),
    };
    const res = await request(`${this.url}${path}`, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body: !body
        ? undefined
        : 'form' in body
          ? new URLSearchParams(body.form).toString()
          : JSON.stringify(body.json),
      dispatcher: this.agent,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.body.text();
    try {
      return { status: res.statusCode, body: JSON.parse(text) };
    } catch {
      return { status: res.statusCode, body: null, text };
    }
  }

  /** For the pass-through proxy, which needs a Node agent of its own. */
  close(): Promise<void> {
    return this.agent.close();
  }
}

/** 502 "error contacting cluster <id>: <detail>" (federation.md §6). */
export const contactError = (cluster: string, err: unknown): BadGatewayError =>
  new BadGatewayError(`error contacting cluster ${cluster}: ${(err as Error).message}`);
