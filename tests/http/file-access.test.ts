import { useDeployment } from '../harness/deployment';
import { md5, raw, volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

const dirs = volumeDirs(1);
const d = useDeployment(withVolumes(dirs));
let U: TestUser;
let uuid: string;

const SECURITY = { 'content-security-policy': 'sandbox', 'x-content-type-options': 'nosniff' };
const c = (path: string, opts: Parameters<typeof raw>[3] = {}, method = 'GET') =>
  raw(d.current.url, method, `/c=${uuid}${path}`, { token: U.token, ...opts });

beforeAll(async () => {
  U = await makeUser(d.current);
  uuid = (await U.client.request('POST', '/svc/v1/collections', { json: { collection: {} } })).body
    .uuid;
  for (const [path, body] of [
    ['/hello.txt', 'hello, files'],
    ['/data/deep/x.bin', 'xyz'],
    ['/data/a.json', '{"a":1}'],
    ['/<b>odd & name.html', '<script>alert(1)</script>'],
  ] as const) {
    const res = await raw(
      d.current.url,
      'PUT',
      `/c=${uuid}${path.split('/').map(encodeURIComponent).join('/')}`,
      {
        token: U.token,
        body,
      },
    );
    expect([path, res.status]).toEqual([path, 201]);
  }
});

describe('reading files (storage.md §9)', () => {
  it('serves a file with its length, type, ETag and the security headers', async () => {
    const res = await c('/hello.txt');
    expect([res.status, res.text]).toEqual([200, 'hello, files']);
    expect(res.headers).toMatchObject({
      ...SECURITY,
      'content-length': '12',
      'content-type': 'text/plain',
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
    });
    expect((await c('/data/deep/x.bin')).headers['content-type']).toBe('application/octet-stream');
    const head = await c('/hello.txt', {}, 'HEAD');
    expect([head.status, head.text, head.headers['content-length']]).toEqual([200, '', '12']);
  });

  it('answers ranges with 206, and 416 past the end', async () => {
    const part = await c('/hello.txt', { headers: { range: 'bytes=7-10' } });
    expect([part.status, part.text, part.headers['content-range']]).toEqual([
      206,
      'file',
      'bytes 7-10/12',
    ]);
    const tail = await c('/hello.txt', { headers: { range: 'bytes=-5' } });
    expect([tail.status, tail.text]).toEqual([206, 'files']);
    const bad = await c('/hello.txt', { headers: { range: 'bytes=50-' } });
    expect([bad.status, bad.headers['content-range']]).toEqual([416, 'bytes */12']);
    expect(bad.headers).toMatchObject(SECURITY);
  });

  it('?disposition=attachment asks for a download', async () => {
    const res = await c('/hello.txt?disposition=attachment');
    expect(res.headers['content-disposition']).toBe('attachment; filename="hello.txt"');
  });

  it('redirects a directory to its slash form, then lists it (HTML, escaped; or JSON)', async () => {
    const redirect = await c('/data');
    expect([redirect.status, redirect.headers['location']]).toEqual([303, `/c=${uuid}/data/`]);
    const html = await c('/');
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers).toMatchObject(SECURITY);
    expect(html.text).not.toContain('<script>');
    expect(html.text).toContain('&#60;b&#62;odd &#38; name.html');
    expect(html.text.indexOf('data/')).toBeLessThan(html.text.indexOf('hello.txt'));
    const json = await c('/data/', { headers: { accept: 'application/json' } });
    expect(JSON.parse(json.text)).toEqual({
      items: [
        { name: 'deep', type: 'directory', size: 3 },
        { name: 'a.json', type: 'file', size: 7 },
      ],
    });
  });

  it('404 for a missing path or collection; 401 with a challenge without a usable token', async () => {
    expect(await c('/nope.txt')).toMatchObject({ status: 404, text: 'file not found\n' });
    const missing = await raw(
      d.current.url,
      'GET',
      `/c=${d.current.home.id}-4zz18-000000000000000/`,
      {
        token: U.token,
      },
    );
    expect(missing.status).toBe(404);
    for (const token of [null, 'not-a-valid-token-000000000000000000']) {
      const res = await c('/hello.txt', { token });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="collections"');
      expect(res.headers).toMatchObject(SECURITY);
    }
    const stranger = await makeUser(d.current);
    expect((await c('/hello.txt', { token: stranger.token })).status).toBe(404);
  });

  it('takes the token as Basic password, in the path, or as api_token (then a cookie)', async () => {
    const basic = Buffer.from(`anyone:${U.token}`).toString('base64');
    expect(
      (await c('/hello.txt', { token: null, headers: { authorization: `Basic ${basic}` } })).status,
    ).toBe(200);
    const inPath = await raw(
      d.current.url,
      'GET',
      `/c=${uuid}/t=${encodeURIComponent(U.token)}/hello.txt`,
    );
    expect([inPath.status, inPath.text]).toEqual([200, 'hello, files']);
    const bare = U.token.split('/')[2]!;
    expect((await raw(d.current.url, 'GET', `/c=${uuid}/t=${bare}/hello.txt`)).status).toBe(200);
    const viaQuery = await c(`/hello.txt?api_token=${encodeURIComponent(U.token)}&x=1`, {
      token: null,
    });
    expect([viaQuery.status, viaQuery.headers['location']]).toEqual([
      303,
      `/c=${uuid}/hello.txt?x=1`,
    ]);
    const cookie = String(viaQuery.headers['set-cookie']);
    expect(cookie).toBe(
      `svc_api_token=${encodeURIComponent(U.token)}; HttpOnly; SameSite=Lax; Path=/c=`,
    );
    const withCookie = await c('/hello.txt', {
      token: null,
      headers: { cookie: cookie.split(';')[0]! },
    });
    expect(withCookie.status).toBe(200);
  });

  it('reads by portable data hash, with - for +', async () => {
    const pdh = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .portable_data_hash;
    const res = await raw(d.current.url, 'GET', `/c=${pdh.replace('+', '-')}/hello.txt`, {
      token: U.token,
    });
    expect([res.status, res.text]).toEqual([200, 'hello, files']);
    const write = await raw(d.current.url, 'PUT', `/c=${pdh}/new.txt`, {
      token: U.token,
      body: 'x',
    });
    expect([write.status, write.text]).toEqual([405, 'read-only collection\n']);
  });
});

describe('WebDAV (storage.md §9)', () => {
  it('OPTIONS announces DAV 1, 2 and the methods', async () => {
    const res = await c('/', {}, 'OPTIONS');
    expect(res.status).toBe(200);
    expect(res.headers['dav']).toBe('1, 2');
    expect(String(res.headers['allow'])).toContain('PROPFIND');
  });

  it('PROPFIND answers 207 multistatus at depth 0 and 1', async () => {
    const one = await c('/data/', { headers: { depth: '1' } }, 'PROPFIND');
    expect(one.status).toBe(207);
    expect(one.headers['content-type']).toMatch(/^application\/xml/);
    expect(one.text).toContain(`<D:href>/c=${uuid}/data/</D:href>`);
    expect(one.text).toContain(`<D:href>/c=${uuid}/data/a.json</D:href>`);
    expect(one.text).toContain('<D:getcontentlength>7</D:getcontentlength>');
    const zero = await c('/data/', { headers: { depth: '0' } }, 'PROPFIND');
    expect(zero.text.match(/<D:response>/g)).toHaveLength(1);
  });

  it('PUT creates (201) and replaces (204), creating parent directories', async () => {
    expect((await c('/w/new/file.txt', { body: 'one' }, 'PUT')).status).toBe(201);
    expect((await c('/w/new/file.txt', { body: 'two!' }, 'PUT')).status).toBe(204);
    expect((await c('/w/new/file.txt')).text).toBe('two!');
    const empty = await c('/w/empty.txt', { body: '' }, 'PUT');
    expect(empty.status).toBe(201);
    expect(await c('/w/empty.txt')).toMatchObject({ status: 200, text: '' });
  });

  it('MKCOL, MOVE, COPY and DELETE change the collection in one update each', async () => {
    expect((await c('/m', {}, 'MKCOL')).status).toBe(201);
    expect((await c('/m/a.txt', { body: 'A' }, 'PUT')).status).toBe(201);
    const dest = (p: string) => ({ headers: { destination: `${d.current.url}/c=${uuid}${p}` } });
    expect((await c('/m/a.txt', dest('/m/b.txt'), 'COPY')).status).toBe(201);
    expect((await c('/m/b.txt', dest('/m/c.txt'), 'MOVE')).status).toBe(201);
    expect((await c('/m/c.txt', dest('/m/a.txt'), 'MOVE')).status).toBe(204);
    expect((await c('/m/b.txt')).status).toBe(404);
    expect((await c('/m/a.txt')).text).toBe('A');
    const elsewhere = await c(
      '/m/a.txt',
      { headers: { destination: `/c=${d.current.home.id}-4zz18-000000000000000/x` } },
      'MOVE',
    );
    expect([elsewhere.status, elsewhere.text]).toEqual([
      400,
      'destination must be in the same collection\n',
    ]);
    expect((await c('/m', {}, 'DELETE')).status).toBe(204);
    expect((await c('/m/a.txt')).status).toBe(404);
    expect((await c('/m/none', {}, 'DELETE')).status).toBe(404);
    const stored = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body;
    expect(stored.unsigned_manifest_text).not.toContain('+A');
  });

  it('LOCK and UNLOCK are accepted', async () => {
    const lock = await c('/hello.txt', {}, 'LOCK');
    expect(lock.status).toBe(200);
    expect(lock.headers['lock-token']).toMatch(/^<opaquelocktoken:/);
    expect(
      (
        await c(
          '/hello.txt',
          { headers: { 'lock-token': String(lock.headers['lock-token']) } },
          'UNLOCK',
        )
      ).status,
    ).toBe(204);
  });

  it('needs write permission; a reader gets 403 and the collection is unchanged', async () => {
    const reader = await makeUser(d.current);
    const link = await U.client.request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: reader.uuid,
          head_uuid: uuid,
        },
      },
    });
    expect(link.status).toBe(200);
    expect((await c('/hello.txt', { token: reader.token })).status).toBe(200);
    const before = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .portable_data_hash;
    expect((await c('/r.txt', { token: reader.token, body: 'r' }, 'PUT')).status).toBe(403);
    expect((await c('/hello.txt', { token: reader.token }, 'DELETE')).status).toBe(403);
    const after = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .portable_data_hash;
    expect(after).toBe(before);
  });

  it('concurrent writes to one collection never lose one another', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `/par/f${i}.txt`);
    const results = await Promise.all(names.map((n) => c(n, { body: n }, 'PUT')));
    expect(results.map((r) => r.status)).toEqual(names.map(() => 201));
    for (const n of names) expect((await c(n)).text).toBe(n);
  });

  it('a file larger than one block is split into blocks of at most 64 MiB', async () => {
    const big = Buffer.alloc(64 * 1024 * 1024 + 10, 7);
    expect((await c('/big.bin', { body: big }, 'PUT')).status).toBe(201);
    const stored = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .unsigned_manifest_text;
    expect(stored).toContain(`${md5(big.subarray(0, 64 * 1024 * 1024))}+67108864`);
    expect(stored).toContain(`${md5(big.subarray(64 * 1024 * 1024))}+10`);
    const tail = await c('/big.bin', { headers: { range: `bytes=${64 * 1024 * 1024 - 2}-` } });
    expect([tail.status, tail.body.length]).toEqual([206, 12]);
  }, 120_000);
});

describe('file names (docs/api/other-resources.md §1)', () => {
  const NUL = 'manifest_text is not a valid manifest: file name contains NUL';

  it('refuses NUL: 400 on /c=, 422 on the API, and nothing is stored', async () => {
    const before = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .portable_data_hash;
    for (const [method, path] of [
      ['PUT', '/a%00b'],
      ['GET', '/a%00b'],
      ['MKCOL', '/d%00'],
    ] as const) {
      const res = await c(path, method === 'PUT' ? { body: 'x' } : {}, method);
      expect([method, res.status, res.text]).toEqual([method, 400, `${NUL}\n`]);
    }
    const api = await U.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: '. d41d8cd98f00b204e9800998ecf8427e+0 0:0:a\\000b\n' } },
    });
    expect([api.status, api.body.errors]).toEqual([422, [NUL]]);
    const after = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .portable_data_hash;
    expect(after).toBe(before);
  });

  it('writes control characters as octal escapes and reads them back by name', async () => {
    const res = await c(`/${encodeURIComponent('tab\there\x7f.txt')}`, { body: 'ctl' }, 'PUT');
    expect(res.status).toBe(201);
    const stored = (await U.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .unsigned_manifest_text as string;
    expect(stored).toContain(':tab\\011here\\177.txt');
    expect((await c(`/${encodeURIComponent('tab\there\x7f.txt')}`)).text).toBe('ctl');
  });
});
