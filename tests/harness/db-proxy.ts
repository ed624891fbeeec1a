import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy between a core and PostgreSQL that a test can break: `pass` forwards bytes,
 * `stall` accepts and holds every connection without forwarding anything either way (a
 * database that accepts and never answers), `down` refuses new connections. `cut()` resets
 * every open connection (a network cut).
 */
export class DbProxy {
  mode: 'pass' | 'stall' | 'down' = 'pass';
  private readonly server: Server;
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  /** Connections accepted while stalled: never forwarded. */
  private readonly held = new Set<Socket>();

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(targetUrl: string): Promise<DbProxy> {
    const target = new URL(targetUrl);
    const proxy = new DbProxy(target.hostname, Number(target.port || 5432));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  route(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Stalled connections stay stalled; new ones follow the mode. */
  setMode(mode: 'pass' | 'stall' | 'down'): void {
    this.mode = mode;
    if (mode !== 'stall') return;
    for (const { client, upstream } of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  cut(): void {
    for (const { client, upstream } of this.pairs) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.pairs.clear();
    for (const client of this.held) client.resetAndDestroy();
    this.held.clear();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.mode === 'down') {
      client.resetAndDestroy();
      return;
    }
    if (this.mode === 'stall') {
      this.held.add(client);
      client.on('error', () => client.destroy()).on('close', () => this.held.delete(client));
      client.pause();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    const pair = { client, upstream };
    this.pairs.add(pair);
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
