import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { splitListen, StartupError } from '@svc/config';

function cause(listen: string, err: NodeJS.ErrnoException): string {
  if (err.code === 'EADDRINUSE') return `${listen} is in use`;
  if (err.code === 'EACCES') return `${listen}: permission denied`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return `${listen}: not an address of this machine`;
  return `${listen}: ${err.message}`;
}

/**
 * Listens on a `host:port` of the configuration; a failure is one line naming the key
 * (`Gateway.Listen 127.0.0.1:8000 is in use`).
 */
export async function listenOn(server: Server, listen: string, key: string): Promise<AddressInfo> {
  const { host, port } = splitListen(listen);
  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) =>
      reject(new StartupError(key, cause(listen, err), ' '));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}
