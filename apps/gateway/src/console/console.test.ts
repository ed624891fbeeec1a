import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { request } from 'undici';
import { consoleHandler } from './index';

/** The console handler on its own, over a directory this test writes. */
async function serve(dir: string, path: string) {
  const server = express().use(consoleHandler(dir)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  } finally {
    server.close();
  }
}

describe('the console handler', () => {
  it('says plainly that the console is not built when its files are missing', async () => {
    const res = await serve(mkdtempSync(join(tmpdir(), 'no-console-')), '/projects/x');
    expect(res.status).toBe(503);
    expect(res.text).toContain('The web console is not built');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('serves only the files of its directory, whatever the path says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<p>console</p>');
    writeFileSync(join(dir, 'assets', 'a-1.js'), 'x()');
    writeFileSync(join(dir, '..', 'secret.txt'), 'no');
    expect((await serve(dir, '/assets/a-1.js')).text).toBe('x()');
    expect((await serve(dir, '/../secret.txt')).text).toBe('<p>console</p>');
    expect((await serve(dir, '/%2e%2e/secret.txt')).text).toBe('<p>console</p>');
    expect((await serve(dir, '/assets/../../secret.txt')).text).toBe('<p>console</p>');
  });
});
