/**
 * What the launcher prints: each start-up step, and when it cannot start, one line naming the
 * key and the cause (exit 1, no stack trace). A second process is kept off an embedded data
 * directory in use.
 */
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClusterDatabase } from '../harness/database-target';
import { servingUrl, spawnLauncher, writeConfig } from '../harness/launcher-process';

const work = mkdtempSync(join(tmpdir(), 'svc-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

async function failure(env: Record<string, string | undefined>) {
  const p = spawnLauncher(env);
  const code = await p.exited;
  return { code, stderr: p.stderr() };
}

it('a port in use: one line naming Gateway.Listen and the address', async () => {
  const db = await createClusterDatabase();
  const { port, server } = await occupiedPort();
  try {
    const { file } = writeConfig(db.url, { gateway: { Listen: `127.0.0.1:${port}` } });
    expect(await failure({ SVC_CONFIG: file })).toEqual({
      code: 1,
      stderr: `Gateway.Listen 127.0.0.1:${port} is in use\n`,
    });
  } finally {
    server.close();
    await db.drop();
  }
}, 60_000);

it('an unreachable PostgreSQL: one line naming the cluster database key', async () => {
  const { port, server } = await occupiedPort();
  server.close(); // a port nothing listens on
  const { file } = writeConfig(`postgres://postgres@127.0.0.1:${port}/svc`);
  expect(await failure({ SVC_CONFIG: file })).toEqual({
    code: 1,
    stderr: 'Clusters.home1.Database.URL: connection refused\n',
  });
}, 30_000);

it('a bad configuration: one line naming the key', async () => {
  const { file } = writeConfig('postgres://postgres@127.0.0.1:5432/svc', {
    cluster: { API: { MaxItemsPerResponse: 0 } },
  });
  expect(await failure({ SVC_CONFIG: file })).toEqual({
    code: 1,
    stderr: 'configuration error: Clusters.home1.API.MaxItemsPerResponse: must be >= 1\n',
  });
  expect(await failure({ SVC_CONFIG: file, PORT: 'eighty' })).toEqual({
    code: 1,
    stderr: 'configuration error: PORT: must be a port number, got "eighty"\n',
  });
}, 30_000);

it('reports each start-up step; a second process is kept off the embedded data directory', async () => {
  const dir = join(work, 'db');
  const { file } = writeConfig(`pglite:${dir}`);
  const first = spawnLauncher({ SVC_CONFIG: file });
  try {
    await servingUrl(first);
    const out = first.stdout();
    expect(out).toMatch(/^home1: opening database \(embedded\)$/m);
    expect(out).toMatch(/^home1: migration \d{14}_init applied \(\d+ ms\)$/m);
    expect(out).toMatch(/^home1: \d+ migration\(s\) applied in \d+\.\d s$/m);
    expect(out).toMatch(/^home1: core listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(out).toMatch(/^web console: http:\/\/127\.0\.0\.1:\d+\/$/m);
    const pid = first.child.pid!;
    expect(await failure({ SVC_CONFIG: file })).toEqual({
      code: 1,
      stderr: `Clusters.home1.Database.URL: ${dir} is in use by another process (pid ${pid})\n`,
    });
  } finally {
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }
  // Released on exit; a lock left by a process that is gone (kill -9) is taken over.
  writeFileSync(`${dir}.lock`, '999999999\n');
  const second = spawnLauncher({ SVC_CONFIG: file });
  try {
    await servingUrl(second);
    expect(second.stdout()).toMatch(/^home1: database schema up to date$/m);
  } finally {
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }
}, 120_000);

it('warns at start when it listens beyond loopback while URLs come from Host', async () => {
  const db = await createClusterDatabase();
  const { file } = writeConfig(db.url, { gateway: { Listen: '0.0.0.0:0' } });
  const p = spawnLauncher({ SVC_CONFIG: file });
  try {
    await servingUrl(p);
    await new Promise((r) => setTimeout(r, 100));
    expect(p.stderr()).toMatch(
      /^warning: Gateway\.Listen 0\.0\.0\.0:0 is not a loopback address and ExternalURL is "": URLs are derived from the Host header, for Gateway\.AllowedHosts only \(localhost, 127\.0\.0\.1, \[::1\], [^)]+\); set ExternalURL to the public URL\n$/,
    );
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
    await db.drop();
  }
}, 60_000);
