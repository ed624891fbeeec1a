import type { Request } from 'express';
import { Agent, request } from 'undici';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * File access is a client of the public API: it reads and updates collections through this
 * gateway's own /svc/v1 with the caller's token, so every rule (scopes, permissions, frozen
 * projects, signatures) applies as for any client.
 */
export class SelfApi {
  private readonly agent = new Agent({ keepAliveTimeout: 2_000, connections: 64 });

  private origin(req: Request): string {
    const address = req.socket.localAddress ?? '127.0.0.1';
    const host = address.includes(':') ? `[${address.replace(/^::ffff:/, '')}]` : address;
    const plain = address.startsWith('::ffff:') ? address.slice(7) : null;
    return `http://${plain ?? host}:${req.socket.localPort}`;
  }

  async call(
    req: Request,
    method: 'GET' | 'PUT',
    path: string,
    token: string,
    json?: unknown,
  ): Promise<ApiAnswer> {
    const res = await request(`${this.origin(req)}${path}`, {
      method,
      dispatcher: this.agent,
      headers: {
        authorization: `Bearer ${token}`,
        // The Host the client used, which the gateway allowed (ExternalURL, AllowedHosts).
        ...(req.headers.host ? { host: req.headers.host } : {}),
        ...(req.headers['x-request-id']
          ? { 'x-request-id': String(req.headers['x-request-id']) }
          : {}),
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    const text = await res.body.text();
    try {
      return { status: res.statusCode, body: JSON.parse(text) as Record<string, unknown> };
    } catch {
      return { status: res.statusCode, body: { errors: [text] } };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
