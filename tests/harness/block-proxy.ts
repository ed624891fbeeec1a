import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A proxy in front of a gateway for client tests: it counts block PUTs, can hold every PUT
 * after the first N (an upload stuck mid-way, to interrupt), and can flip a byte of every
 * block it answers (a client must notice).
 */
export class BlockProxy {
  url = '';
  puts = 0;
  holdPutsAfter: number | null = null;
  corruptReads = false;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = createServer((req, res) => {
      const isBlock = /^\/[0-9a-f]{32}/.test(req.url ?? '');
      if (req.method === 'PUT' && isBlock) {
        this.puts++;
        if (this.holdPutsAfter !== null && this.puts > this.holdPutsAfter) return;
      }
      const corrupt = this.corruptReads && req.method === 'GET' && isBlock;
      const out = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer: IncomingMessage) => {
          if (!corrupt || answer.statusCode !== 200) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const body = Buffer.concat(chunks);
            if (body.length > 0) body[0] = body[0]! ^ 0xff;
            res.writeHead(200, answer.headers);
            res.end(body);
          });
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
