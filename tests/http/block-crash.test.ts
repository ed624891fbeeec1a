import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { randomAlnum } from '@svc/ids';
import { createClusterDatabase } from '../harness/database-target';
import { freePort } from '../harness/moto';
import { startServerProcess, type ServerProcess } from '../harness/server-process';
import { filesUnder, md5 } from '../harness/storage';

// kill -9 of the server while 8 clients upload: after a restart every block that was answered
// 200 reads back intact, and no volume holds a partial block under a final name (storage.md §4).
const work = mkdtempSync(join(tmpdir(), 'svc-crash-'));
const blocksDir = join(work, 'blocks');
const rootToken = randomAlnum(40);
let server: ServerProcess | null = null;
let dropDb: () => Promise<void> = async () => undefined;
afterAll(async () => {
  await server?.stop();
  await dropDb();
  rmSync(work, { recursive: true, force: true });
});

async function writeConfig(): Promise<string> {
  const db = await createClusterDatabase();
  dropDb = () => db.drop().catch(() => undefined);
  const file = join(work, 'svc.yml');
  const port = await freePort();
  writeFileSync(
    file,
    JSON.stringify({
      Gateway: { Listen: `127.0.0.1:${port}` },
      Clusters: {
        crash: {
          SystemRootToken: rootToken,
          Database: { URL: db.url },
          Login: { Test: { Enable: true } },
          Collections: { DefaultReplication: 1 },
          Volumes: { disk: { Driver: 'Directory', DriverParameters: { Root: blocksDir } } },
        },
      },
    }),
  );
  return file;
}

/** Uploads blocks until the server goes away; answers the locators it got 200 for. */
async function uploader(url: string, done: Map<string, string>): Promise<void> {
  for (;;) {
    const data = randomBytes(256 * 1024 + Math.floor(Math.random() * 3 * 1024 * 1024));
    try {
      const res = await request(`${url}/${md5(data)}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${rootToken}` },
        body: data,
      });
      const text = await res.body.text();
      if (res.statusCode === 200) done.set(text.trim(), md5(data));
    } catch {
      return;
    }
  }
}

describe('a server killed while clients upload', () => {
  it('keeps every acknowledged block and no partial one', async () => {
    const config = await writeConfig();
    server = await startServerProcess(config);
    const acknowledged = new Map<string, string>();
    const clients = Array.from({ length: 8 }, () => uploader(server!.url, acknowledged));
    await new Promise((r) => setTimeout(r, 1500));
    await server.kill9();
    await Promise.all(clients);
    expect(acknowledged.size).toBeGreaterThan(0);

    server = await startServerProcess(config);
    for (const [locator, hash] of acknowledged) {
      const res = await request(`${server.url}/${locator}`, {
        headers: { authorization: `Bearer ${rootToken}` },
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      expect([locator, res.statusCode, md5(body)]).toEqual([locator, 200, hash]);
    }
    const finals = filesUnder(blocksDir).filter((f) => /^[0-9a-f]{3}\/[0-9a-f]{32}$/.test(f));
    expect(finals.length).toBeGreaterThanOrEqual(acknowledged.size);
    for (const f of finals) {
      const name = f.slice(4);
      expect([
        name,
        createHash('md5')
          .update(readFileSync(join(blocksDir, f)))
          .digest('hex'),
      ]).toEqual([name, name]);
    }
  }, 180_000);
});
