/**
 * The web console at the gateway's root (requests-and-errors.md §2): every GET path that no
 * API, block, file, login or operations route takes serves the console (index.html for its
 * own routes, its built files otherwise), with cache headers and a CSP that allows only the
 * gateway's own origin; unknown API paths stay 404 in the error shape.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { CONSOLE_CSP, CONSOLE_DIR } from '@svc/gateway';
import { useDeployment } from '../harness/deployment';

const d = useDeployment();
const index = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(index)![1]!;

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await request(`${d.current.url}${path}`, { method: method as 'GET', headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

describe('the web console at the root URL', () => {
  it.each(['/', '/projects/home1-j7d0g-000000000000000', '/collections/x?path=a', '/elsewhere'])(
    'GET %s answers index.html, revalidated each time, under the console CSP',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body.toString()).toBe(index);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    },
  );

  it('allows scripts, styles, images and API calls from its own origin only', () => {
    const directives = Object.fromEntries(
      CONSOLE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    for (const k of ['default-src', 'script-src', 'style-src', 'img-src', 'connect-src'])
      expect([k, directives[k]]).toEqual([k, "'self'"]);
    expect(directives['frame-ancestors']).toBe("'none'");
  });

  it('serves hashed assets as immutable, compressed when the browser accepts it', async () => {
    const plain = await get(entry);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get(entry, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(plain.body);
    const gz = await get(entry, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body)).toEqual(plain.body);
    expect(br.headers['vary']).toBe('Accept-Encoding');
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await get('/');
    const again = await get('/', { 'if-none-match': String(first.headers['etag']) });
    expect([again.status, again.body.length]).toEqual([304, 0]);
    const head = await get('/projects/x', {}, 'HEAD');
    expect([head.status, head.body.length, head.headers['content-length']]).toEqual([
      200,
      0,
      String(Buffer.byteLength(index)),
    ]);
  });

  it('answers 404 for a missing asset, never the page (an old page must not run HTML)', async () => {
    const res = await get('/assets/index-OLDHASH.js');
    expect([res.status, res.headers['content-type']]).toEqual([404, 'text/plain; charset=utf-8']);
  });

  it.each([
    ['GET', '/svc/v1/no_such_things'],
    ['GET', '/svc/other'],
    ['GET', '/discovery/v1/elsewhere'],
    ['GET', '/_nothing'],
    ['POST', '/projects/x'],
    ['DELETE', '/'],
  ])('%s %s stays 404 API endpoint not found', async (method, path) => {
    const res = await d.current.root.request(method, path);
    expect([res.status, res.body.errors]).toEqual([404, ['API endpoint not found']]);
  });

  it('leaves login, discovery, file access and the block service where they were', async () => {
    expect((await get('/login')).status).toBe(422); // return_to is required: the login route
    expect((await get('/discovery/v1/apis/svc/v1/rest')).headers['content-type']).toMatch(/json/);
    expect((await get('/c=home1-4zz18-000000000000000/x')).status).toBe(401);
    const block = await get('/acbd18db4cc2f85cedef654fccc4a4d8+3');
    expect([block.status, block.headers['content-type']]).toEqual([
      401,
      'text/plain; charset=utf-8',
    ]);
  });

  it('keeps the first load of the console within 300 KB of compressed JavaScript', () => {
    const assets = join(CONSOLE_DIR, 'assets');
    const first = [...index.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(first.length).toBeGreaterThan(0);
    const bytes = first.reduce((n, f) => n + readFileSync(join(assets, `${f}.br`)).length, 0);
    expect(readdirSync(assets).length).toBeGreaterThan(first.length);
    expect(bytes).toBeLessThanOrEqual(300 * 1024);
  });
});
