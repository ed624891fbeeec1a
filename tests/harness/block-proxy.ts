import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/** The request to the gateway for one the proxy got: the same method, path and headers. */
const passedOn = (target: URL, req: IncomingMessage) => ({
  host: target.hostname,
  port: target.port,
  method: req.method,
  path: req.url,
  headers: req.headers,
});

/**
 * A proxy in front of a gateway for client tests (the Host header passed on as the client sent
 * it, so URLs the gateway derives from it name the proxy): it counts block PUTs, can hold every PUT
 * after the first N (an upload stuck mid-way, to interrupt), can flip a byte of every block it
 * answers (a client must notice), and can answer 503 to one POST after passing it on (the
 * write went through, the client hears it failed).
 */
export class BlockProxy {
  url = '';
  puts = 0;
  holdPutsAfter: number | null = null;
  corruptReads = false;
  /** The next POST whose path and body match is passed on, then answered 503 (once). */
  lostAnswer: ((path: string, body: string) => boolean) | null = null;
  /** Requests answered so by lostAnswer. */
  lostAnswers = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = createServer((req, res) => {
      if (req.method === 'POST' && this.lostAnswer) {
        this.passThenFail(target, req, res);
        return;
      }
      const isBlock = /^\/[0-9a-f]{32}/.test(req.url ?? '');
      if (req.method === 'PUT' && isBlock) {
        this.puts++;
        if (this.holdPutsAfter !== null && this.puts > this.holdPutsAfter) return;
      }
      const corrupt = this.corruptReads && req.method === 'GET' && isBlock;
      const out = request(passedOn(target, req), (answer: IncomingMessage) => {
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
      });
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

  /** A POST read whole: passed on as it is, answered 503 if lostAnswer matches it. */
  private passThenFail(target: URL, req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const lose = this.lostAnswer?.(req.url ?? '', body.toString('utf8')) ?? false;
      if (lose) this.lostAnswer = null;
      const out = request(passedOn(target, req), (answer: IncomingMessage) => {
        if (!lose) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        answer.resume();
        answer.on('end', () => {
          this.lostAnswers++;
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ errors: ['service unavailable (test proxy)'] }));
        });
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
