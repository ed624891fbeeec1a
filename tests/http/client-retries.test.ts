import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, SvcClient, type ClientOptions } from '@svc/client';

/**
 * Retries of idempotent calls on 502/503, against a small fake server that answers a scripted
 * sequence of statuses and counts what it was asked.
 */
let server: Server;
let url: string;
let script: { status: number; headers?: Record<string, string> }[] = [];
let seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.method!);
    req.resume();
    const next = script.shift() ?? { status: 200 };
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(
      JSON.stringify(
        next.status < 300
          ? { kind: 'svc#group', uuid: 'home1-j7d0g-000000000000001' }
          : { errors: [`fake ${next.status}`], error_token: '1+00000000' },
      ),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((ok) => server.close(ok)));
beforeEach(() => {
  script = [];
  seen = [];
});

const clientWith = (options: ClientOptions = {}) =>
  new SvcClient({ host: url, token: 't', retry: { baseDelayMs: 5, maxDelayMs: 50 }, ...options });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as ApiError,
  );
const uuid = 'home1-j7d0g-000000000000001';

describe('retries of idempotent calls', () => {
  it('tries a GET again after 503 and 502, and answers once it succeeds', async () => {
    script = [{ status: 503 }, { status: 502 }];
    const c = clientWith();
    const g = await c.api.groups.get({ uuid });
    expect(g.uuid).toBe(uuid);
    expect(seen).toEqual(['GET', 'GET', 'GET']);
    await c.close();
  });

  it('retries PUT and DELETE too, but never a POST', async () => {
    const c = clientWith();
    script = [{ status: 503 }];
    await c.api.groups.update({ uuid, attributes: { name: 'x' } });
    script = [{ status: 502 }];
    await c.api.groups.delete({ uuid });
    expect(seen).toEqual(['PUT', 'PUT', 'DELETE', 'DELETE']);
    seen = [];
    script = [{ status: 503 }];
    const err = await failure(c.api.groups.create({ attributes: { name: 'x' } }));
    expect(err).toBeInstanceOf(ApiError);
    expect([err!.status, err!.errors, seen]).toEqual([503, ['fake 503'], ['POST']]);
    await c.close();
  });

  it('gives up after the bounded number of tries, and never retries other errors', async () => {
    const c = clientWith({ retry: { attempts: 3, baseDelayMs: 5 } });
    script = Array(10).fill({ status: 503 });
    const err = await failure(c.api.groups.get({ uuid }));
    expect([err!.status, seen.length]).toEqual([503, 3]);
    seen = [];
    script = [{ status: 500 }];
    expect((await failure(c.api.groups.get({ uuid })))!.status).toBe(500);
    expect(seen).toHaveLength(1);
    const off = clientWith({ retry: false });
    seen = [];
    script = [{ status: 503 }];
    expect((await failure(off.api.groups.get({ uuid })))!.status).toBe(503);
    expect(seen).toHaveLength(1);
    await Promise.all([c.close(), off.close()]);
  });

  it('waits as Retry-After says, but never longer than maxDelayMs', async () => {
    const c = clientWith({ retry: { baseDelayMs: 1, maxDelayMs: 300 } });
    script = [{ status: 503, headers: { 'retry-after': '3600' } }];
    const started = Date.now();
    await c.api.groups.get({ uuid });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(280);
    expect(waited).toBeLessThan(3000);
    await c.close();
  });

  it('takes the host and token from SVC_API_HOST and SVC_API_TOKEN', async () => {
    const saved = { ...process.env };
    try {
      process.env['SVC_API_HOST'] = url;
      process.env['SVC_API_TOKEN'] = 'from-env';
      const c = new SvcClient();
      expect([c.baseUrl, c.token]).toEqual([url, 'from-env']);
      expect((await c.api.groups.get({ uuid })).uuid).toBe(uuid);
      await c.close();
      delete process.env['SVC_API_HOST'];
      expect(() => new SvcClient()).toThrow('No API host: pass `host` or set SVC_API_HOST');
    } finally {
      process.env = saved;
    }
  });
});
