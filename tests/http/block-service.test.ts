import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { signLocator } from '@svc/blocks';
import { derivedBlobSigningKey } from '@svc/config';
import { blockWriteLimits } from '@svc/gateway';
import { useDeployment } from '../harness/deployment';
import { rawExchange } from '../harness/raw-socket';
import { filesUnder, md5, raw, volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

const dirs = volumeDirs(2);
const d = useDeployment(withVolumes(dirs));
const TTL = 1209600;
const key = () => derivedBlobSigningKey(d.current.home.rootToken);
const sign = (locator: string, token: string, expires = Math.floor(Date.now() / 1000) + 3600) =>
  signLocator(locator, token, expires, { key: key(), ttlSeconds: TTL });
const put = (path: string, token: string | null, body: Buffer | string, headers = {}) =>
  raw(d.current.url, 'PUT', `/${path}`, { token, body, headers });
const get = (path: string, token: string | null, method = 'GET') =>
  raw(d.current.url, method, `/${path}`, { token });

let U: TestUser;
beforeAll(async () => {
  U = await makeUser(d.current);
});

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, PUT, OPTIONS',
  'access-control-allow-headers':
    'Authorization, Content-Length, Content-Type, X-Keep-Desired-Replicas, X-Keep-Storage-Classes, X-Keep-Signature',
  'access-control-expose-headers':
    'X-Keep-Locator, X-Keep-Replicas-Stored, X-Keep-Storage-Classes-Confirmed',
};

describe('PUT /<md5> (storage.md §4)', () => {
  it('stores the block and answers its locator signed for the presented token', async () => {
    const data = 'hello blocks';
    const res = await put(md5(data), U.token, data);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      ...CORS,
      'x-keep-replicas-stored': '1',
      'x-keep-storage-classes-confirmed': 'default=1',
    });
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const m = /^([0-9a-f]{32}\+12)\+A[0-9a-f]{40}@([0-9a-f]{8})\n$/.exec(res.text);
    expect(m?.[1]).toBe(`${md5(data)}+12`);
    const expiry = parseInt(m![2]!, 16);
    expect(Math.abs(expiry - (Date.now() / 1000 + TTL))).toBeLessThan(60);
    expect(res.text).toBe(`${sign(`${md5(data)}+12`, U.token, expiry)}\n`);
    const stored = dirs.flatMap((dir) => filesUnder(dir)).filter((f) => f.endsWith(md5(data)));
    expect(stored).toHaveLength(1);
  });

  it('ignores size and hints in the path; takes OAuth2 and chunked bodies', async () => {
    const data = 'chunked body';
    const res = await request(`${d.current.url}/${md5(data)}+999+Kfoo`, {
      method: 'PUT',
      headers: { authorization: `OAuth2 ${U.token}` },
      body: Readable.from([Buffer.from('chunked '), Buffer.from('body')]),
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toMatch(new RegExp(`^${md5(data)}\\+12\\+A`));
  });

  it('writes up to X-Keep-Desired-Replicas copies and says how many it stored', async () => {
    const data = 'two copies';
    const two = await put(md5(data), U.token, data, { 'X-Keep-Desired-Replicas': '2' });
    expect(two.headers['x-keep-replicas-stored']).toBe('2');
    expect(two.headers['x-keep-storage-classes-confirmed']).toBe('default=2');
    const three = await put(md5(data), U.token, data, { 'X-Keep-Desired-Replicas': '3' });
    expect([three.status, three.headers['x-keep-replicas-stored']]).toEqual([200, '2']);
    // Copies already there count, whatever was asked for.
    const again = await put(md5(data), U.token, data);
    expect(again.headers['x-keep-replicas-stored']).toBe('2');
  });

  it('answers the empty block without storing it', async () => {
    const res = await put('d41d8cd98f00b204e9800998ecf8427e', U.token, '', {
      'X-Keep-Desired-Replicas': '3',
    });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^d41d8cd98f00b204e9800998ecf8427e\+0\+A[0-9a-f]{40}@[0-9a-f]{8}\n$/);
    expect(res.headers['x-keep-replicas-stored']).toBe('3');
    expect(dirs.flatMap((dir) => filesUnder(dir)).some((f) => f.includes('d41d8cd9'))).toBe(false);
  });

  it.each([
    ['not hex', 'xyz'],
    ['upper case', md5('x').toUpperCase()],
    ['short', md5('x').slice(1)],
    ['bad hint', `${md5('x')}+1+k`],
  ])('400 "invalid locator" for a path that is %s, before the token', async (_w, path) => {
    const res = await put(path, null, 'x');
    expect([res.status, res.text]).toEqual([400, 'invalid locator\n']);
    expect(res.headers).toMatchObject(CORS);
  });

  it('401 without a token or with a bad one', async () => {
    for (const token of [null, 'not-a-token-at-all-but-long-enough-000000']) {
      const res = await put(md5('x'), token, 'x');
      expect([res.status, res.text]).toEqual([401, 'Not logged in\n']);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
    }
  });

  it('403 for an inactive user, and for scopes that may not create collections', async () => {
    const inactive = await makeUser(d.current, { is_active: false });
    const a = await put(md5('x'), inactive.token, 'x');
    expect([a.status, a.text]).toEqual([403, 'Forbidden: user is not active\n']);
    const readOnly = await makeUser(d.current, {}, { scopes: ['GET /'] });
    const b = await put(md5('x'), readOnly.token, 'x');
    expect([b.status, b.text]).toEqual([403, 'Forbidden\n']);
    const writer = await makeUser(d.current, {}, { scopes: ['POST /svc/v1/collections'] });
    expect((await put(md5('x'), writer.token, 'x')).status).toBe(200);
  });

  it('400 for a bad X-Keep-Desired-Replicas, 422 for an unknown storage class', async () => {
    for (const value of ['0', 'two', '-1', '1.5']) {
      const res = await put(md5('x'), U.token, 'x', { 'X-Keep-Desired-Replicas': value });
      expect([res.status, res.text]).toEqual([400, 'invalid X-Keep-Desired-Replicas\n']);
    }
    const bad = await put(md5('x'), U.token, 'x', { 'X-Keep-Storage-Classes': 'default, archive' });
    expect([bad.status, bad.text]).toEqual([422, 'unknown storage class archive\n']);
    const ok = await put(md5('x'), U.token, 'x', { 'X-Keep-Storage-Classes': ' default, ,' });
    expect(ok.status).toBe(200);
  });

  it('413 when more than 64 MiB is announced, or received', async () => {
    const announced = await rawExchange(d.current.url, [
      `PUT /${md5('x')} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${U.token}\r\nContent-Length: 67108865\r\n\r\n`,
    ]);
    expect(announced).toMatch(/^HTTP\/1.1 413 /);
    expect(announced).toMatch(/\r\n\r\nblock too large\n$/);
    const chunk = Buffer.alloc(1 << 20, 1);
    const big = await request(`${d.current.url}/${md5('big')}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${U.token}` },
      body: Readable.from(
        (function* () {
          for (let i = 0; i < 65; i++) yield chunk;
        })(),
      ),
    }).then(
      async (r) => [r.statusCode, await r.body.text()],
      () => 'connection closed',
    );
    expect(big).toEqual([413, 'block too large\n']);
  }, 60_000);

  it('400 "content length mismatch" when the body ends early', async () => {
    const res = await rawExchange(d.current.url, [
      `PUT /${md5('0123456789')} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${U.token}\r\nContent-Length: 10\r\n\r\n01234`,
      { end: true },
    ]);
    // The server may only close the connection: a client that stops sending gets no 200.
    expect(res).not.toMatch(/^HTTP\/1.1 200/);
    // Node's HTTP parser answers 400 itself when the connection ends inside the body.
    if (res !== '') expect(res).toMatch(/^HTTP\/1.1 400 /);
    expect(dirs.flatMap((dir) => filesUnder(dir)).some((f) => f.endsWith(md5('0123456789')))).toBe(
      false,
    );
  });

  it('422 when the body is not the block, leaving nothing behind', async () => {
    const res = await put(md5('expected'), U.token, 'other bytes');
    expect(res.status).toBe(422);
    expect(res.text).toBe(
      `content hash ${md5('other bytes')} does not match locator ${md5('expected')}\n`,
    );
    const files = dirs.flatMap((dir) => filesUnder(dir));
    expect(
      files.filter((f) => f.includes(md5('expected')) || f.includes(md5('other bytes'))),
    ).toEqual([]);
  });

  it('answers Expect: 100-continue before the body is sent', async () => {
    const res = await rawExchange(d.current.url, [
      `PUT /${md5('continue')} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${U.token}\r\nContent-Length: 8\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      { waitFor: '100 Continue' },
      'continue',
    ]);
    expect(res).toMatch(/^HTTP\/1.1 100 Continue\r\n\r\nHTTP\/1.1 200 OK/);
  });

  it('waits for a turn when too many writes run, then 503 "too many concurrent writes"', async () => {
    const saved = { ...blockWriteLimits };
    Object.assign(blockWriteLimits, { concurrent: 1, waitMs: 300 });
    try {
      const slow = new Readable({ read() {} });
      slow.push('slow');
      const first = request(`${d.current.url}/${md5('slow body')}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${U.token}`, 'content-length': '9' },
        body: slow,
      });
      await new Promise((r) => setTimeout(r, 100));
      const second = await put(md5('y'), U.token, 'y');
      expect([second.status, second.text]).toEqual([503, 'too many concurrent writes\n']);
      slow.push(' body');
      slow.push(null);
      expect((await first).statusCode).toBe(200);
      // A waiting write gets its turn when one finishes.
      Object.assign(blockWriteLimits, { waitMs: 5000 });
      const slow2 = new Readable({ read() {} });
      const third = request(`${d.current.url}/${md5('z')}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${U.token}`, 'content-length': '1' },
        body: slow2,
      });
      await new Promise((r) => setTimeout(r, 100));
      const fourth = put(md5('w'), U.token, 'w');
      slow2.push('z');
      slow2.push(null);
      expect([(await third).statusCode, (await fourth).status]).toEqual([200, 200]);
    } finally {
      Object.assign(blockWriteLimits, saved);
    }
  });
});

describe('GET and HEAD /<locator> (storage.md §4)', () => {
  const data = 'readable block';
  let signed: string;
  beforeAll(async () => {
    signed = (await put(md5(data), U.token, data)).text.trim();
  });

  it('streams the block for a signed locator', async () => {
    const res = await get(signed, U.token);
    expect(res.status).toBe(200);
    expect(res.text).toBe(data);
    expect(res.headers).toMatchObject({
      ...CORS,
      'content-type': 'application/octet-stream',
      'content-length': String(data.length),
    });
    const head = await get(signed, U.token, 'HEAD');
    expect([head.status, head.headers['content-length'], head.text]).toEqual([200, '14', '']);
  });

  it('400 for an invalid locator; 405 for a GET without a size (HEAD may omit it)', async () => {
    expect(await get(md5(data) + 'zz', U.token)).toMatchObject({
      status: 400,
      text: 'invalid locator\n',
    });
    expect(await get(`${md5(data)}+14+a`, U.token)).toMatchObject({ status: 400 });
    const bare = `${md5(data)}+${signed.split('+').slice(2).join('+')}`;
    expect(await get(bare, U.token)).toMatchObject({ status: 405, text: 'method not allowed\n' });
    expect((await get(bare, U.token, 'HEAD')).status).toBe(200);
  });

  it('401 without a token; 403 for a missing, invalid or expired signature', async () => {
    expect(await get(signed, null)).toMatchObject({ status: 401, text: 'Not logged in\n' });
    expect(await get(`${md5(data)}+14`, U.token)).toMatchObject({
      status: 403,
      text: 'missing signature\n',
    });
    const other = await makeUser(d.current);
    expect(await get(signed, other.token)).toMatchObject({
      status: 403,
      text: 'invalid signature\n',
    });
    const expired = sign(`${md5(data)}+14`, U.token, Math.floor(Date.now() / 1000) - 10);
    expect(await get(expired, U.token)).toMatchObject({ status: 403, text: 'expired signature\n' });
    // A signature binds the token string as presented: the bare secret is another string.
    const secret = U.token.split('/')[2]!;
    expect(await get(signed, secret)).toMatchObject({ status: 403, text: 'invalid signature\n' });
    expect((await get(sign(`${md5(data)}+14`, secret), secret)).status).toBe(200);
  });

  it('answers the empty block whatever the token or signature', async () => {
    for (const token of [null, U.token]) {
      const res = await get('d41d8cd98f00b204e9800998ecf8427e+0', token);
      expect([res.status, res.text, res.headers['content-length']]).toEqual([200, '', '0']);
    }
  });

  it('404 for a block it does not have, and for a copy of another size', async () => {
    expect(await get(sign(`${md5('absent')}+6`, U.token), U.token)).toMatchObject({
      status: 404,
      text: 'block not found\n',
    });
    expect((await get(sign(`${md5(data)}+15`, U.token), U.token)).status).toBe(404);
    expect((await get(sign(`${md5(data)}+15`, U.token), U.token, 'HEAD')).status).toBe(404);
  });

  it('400 for a +R locator of a cluster that is not configured', async () => {
    const res = await get(`${md5(data)}+14+Rzzzzz-${'a'.repeat(40)}@7fffffff`, U.token);
    expect([res.status, res.text]).toEqual([400, 'remote cluster zzzzz is not configured\n']);
  });

  it('a corrupt copy: GET fails the read, HEAD answers 502', async () => {
    const bad = 'soon corrupt';
    const loc = (await put(md5(bad), U.token, bad)).text.trim();
    for (const dir of dirs) {
      const file = join(dir, md5(bad).slice(0, 3), md5(bad));
      if (filesUnder(dir).some((f) => f.endsWith(md5(bad)))) writeFileSync(file, 'XXXX corrupt');
    }
    const read = await request(`${d.current.url}/${loc}`, {
      headers: { authorization: `Bearer ${U.token}` },
    }).then(
      async (r) => Buffer.from(await r.body.arrayBuffer()).toString(),
      (e: Error) => `failed: ${e.message}`,
    );
    expect(read).not.toBe('XXXX corrupt');
    expect(read).toMatch(/^failed/);
    const head = await get(loc, U.token, 'HEAD');
    expect(head.status).toBe(502);
    const text = await get(`${md5(bad)}`, U.token, 'HEAD');
    expect(text.status).toBe(403);
  });

  it('OPTIONS answers 200 with the CORS headers, no token needed', async () => {
    const res = await raw(d.current.url, 'OPTIONS', `/${signed}`);
    expect([res.status, res.text]).toEqual([200, '']);
    expect(res.headers).toMatchObject(CORS);
  });
});

describe('administration (storage.md §4)', () => {
  it('/index lists every stored copy with its time, then an empty line; root only', async () => {
    expect(await raw(d.current.url, 'GET', '/index')).toMatchObject({ status: 401 });
    expect(await raw(d.current.url, 'GET', '/index', { token: U.token })).toMatchObject({
      status: 403,
      text: 'Forbidden\n',
    });
    const data = 'indexed';
    await put(md5(data), U.token, data);
    const res = await raw(d.current.url, 'GET', '/index', { token: d.current.home.rootToken });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject(CORS);
    expect(res.text.endsWith('\n\n')).toBe(true);
    const lines = res.text.slice(0, -2).split('\n');
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{32}\+[0-9]+ [0-9]{19}$/);
    const mine = lines.find((l) => l.startsWith(`${md5(data)}+7 `))!;
    const ns = BigInt(mine.split(' ')[1]!);
    expect(Number(ns / 1_000_000n)).toBeGreaterThan(Date.now() - 60_000);
    const some = await raw(d.current.url, 'GET', `/index/${md5(data).slice(0, 2)}`, {
      token: d.current.home.rootToken,
    });
    const prefixed = some.text.trim().split('\n');
    expect(prefixed).toContain(mine);
    expect(prefixed.every((l) => l.startsWith(md5(data).slice(0, 2)))).toBe(true);
  });

  it('/mounts describes every volume', async () => {
    expect((await raw(d.current.url, 'GET', '/mounts', { token: U.token })).status).toBe(403);
    const res = await raw(d.current.url, 'GET', '/mounts', { token: d.current.home.rootToken });
    expect(res.status).toBe(200);
    const mounts = JSON.parse(res.text);
    expect(mounts.map((m: any) => m.id).sort()).toEqual(['vol0', 'vol1']);
    for (const m of mounts) {
      expect(m).toEqual({
        id: expect.any(String),
        driver: 'Directory',
        read_only: false,
        replication: 1,
        storage_classes: { default: true },
        blocks: expect.any(Number),
        bytes: expect.any(Number),
      });
    }
    expect(mounts.reduce((n: number, m: any) => n + m.blocks, 0)).toBeGreaterThan(3);
  });
});

describe('volume failure', () => {
  it('503 "volume unavailable" when every write fails', async () => {
    // Disks that vanished: their directories are removed under the running server.
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const res = await put(md5('nowhere'), U.token, 'nowhere');
    expect([res.status, res.text]).toEqual([503, 'volume unavailable\n']);
  });
});
