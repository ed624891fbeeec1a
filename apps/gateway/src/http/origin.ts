import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** `<scheme>://<Host>` of a request as the client made it (used when ExternalURL is empty). */
export function requestOrigin(req: IncomingMessage): string {
  const secure = (req.socket as Partial<TLSSocket>).encrypted === true;
  return `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
}
