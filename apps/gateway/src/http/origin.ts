import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** A Host header that is only a host name or address and an optional port (RFC 9110 §7.2). */
const VALID_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * `<scheme>://<Host>` of a request as the client made it (used when ExternalURL is empty). A
 * Host that is anything more than a host and port (a path, `@`, spaces, another scheme) would
 * let a client write the URLs the server hands out: it is replaced by the address the request
 * arrived at.
 */
export function requestOrigin(req: IncomingMessage): string {
  const secure = (req.socket as Partial<TLSSocket>).encrypted === true;
  const host = req.headers.host;
  const local = req.socket.localAddress ?? '127.0.0.1';
  const fallback = `${local.includes(':') ? `[${local}]` : local}:${req.socket.localPort ?? 80}`;
  const valid = host !== undefined && host.length <= 255 && VALID_HOST.test(host);
  return `${secure ? 'https' : 'http'}://${valid ? host : fallback}`;
}
