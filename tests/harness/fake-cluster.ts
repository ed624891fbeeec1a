import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A stand-in for another cluster's gateway that misbehaves on purpose: answers with a handler
 * of the test's choosing, never answers, or is not there at all. Listens on loopback only.
 */
export interface FakeCluster {
  host: string;
  /** What each request gets; by default a 200 `{}`. */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  requests: { method: string; url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

export async function startFakeCluster(): Promise<FakeCluster> {
  const sockets = new Set<Socket>();
  const fake: FakeCluster = {
    host: '',
    handle: (_req, res) => res.end('{}'),
    requests: [],
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    fake.requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
    });
    req.resume();
    fake.handle(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  fake.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

/** A handler that never answers (the connection stays open until the test ends). */
export const hang = (): void => undefined;

/** JSON with a status. */
export const json =
  (status: number, body: unknown) =>
  (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

/** A loopback address with nothing listening (a cluster that is down). */
export async function deadHost(): Promise<string> {
  const fake = await startFakeCluster();
  await fake.close();
  return fake.host;
}
