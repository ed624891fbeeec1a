import type { Server, ServerResponse } from 'node:http';

/**
 * Stops accepting connections and lets the requests in flight finish: idle keep-alive
 * connections are closed as soon as they are idle, and whatever still runs after `boundMs` is
 * cut off, so shutdown never waits longer than that.
 */
export async function drain(server: Server, boundMs: number): Promise<void> {
  // Requests still arriving on open keep-alive connections are answered, with the connection
  // closed after: clients then reconnect and find the port closed instead of being cut off.
  server.on('request', (_req, res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  const cutOff = setTimeout(() => server.closeAllConnections(), boundMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(cutOff);
  }
}
