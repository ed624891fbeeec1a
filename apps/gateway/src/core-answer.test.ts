import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { AnswerHandler, WHOLE_ANSWER_BYTES, type CoreAnswer } from './core-answer';

/**
 * The gateway's own undici handler for core answers: small answers arrive whole (one Buffer),
 * large ones or ones of unknown length stream, every byte in order; a failed call rejects.
 */
const big = Buffer.alloc(WHOLE_ANSWER_BYTES + 4096, 'x');
let server: Server;
let pool: Pool;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/small') {
      res.setHeader('Content-Type', 'application/json');
      res.end('{"a":1}');
    } else if (req.url === '/big') {
      res.setHeader('Content-Length', big.length);
      res.end(big);
    } else if (req.url === '/chunked') {
      res.write('{"part":');
      res.end('2}');
    } else {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await pool.close();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string) =>
  new Promise<CoreAnswer>((resolve, reject) => {
    pool.dispatch({ method: 'GET', path }, new AnswerHandler(resolve, reject));
  });

describe('AnswerHandler', () => {
  it('hands a small answer over whole, with its content type and length', async () => {
    const answer = await get('/small');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers).toEqual({ 'content-type': 'application/json', 'content-length': '7' });
    expect(answer.body.whole?.toString()).toBe('{"a":1}');
    expect(await answer.body.json()).toEqual({ a: 1 });
  });

  it('streams an answer above the whole-answer size, every byte in order', async () => {
    const answer = await get('/big');
    expect(answer.body.whole).toBeNull();
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
  });

  it('streams an answer of unknown length', async () => {
    const answer = await get('/chunked');
    expect(answer.body.whole).toBeNull();
    expect(await answer.body.text()).toBe('{"part":2}');
  });

  it('rejects when the connection is cut before an answer', async () => {
    await expect(get('/cut')).rejects.toThrow();
  });
});
