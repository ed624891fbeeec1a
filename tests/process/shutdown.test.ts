/**
 * SIGTERM to a running server while clients keep writing: it stops accepting, finishes the
 * requests in flight, closes its cores and pools and exits 0 within Gateway.ShutdownTimeout;
 * every write it acknowledged is there after a restart, and no request got a 5xx.
 */
import { request } from 'undici';
import { createClusterDatabase } from '../harness/database-target';
import {
  servingUrl,
  spawnLauncher,
  writeConfig,
  type LauncherProcess,
} from '../harness/launcher-process';

const SHUTDOWN_TIMEOUT_S = 5;
const WRITERS = 6;

let db: Awaited<ReturnType<typeof createClusterDatabase>>;
let running: LauncherProcess | null = null;
beforeAll(async () => {
  db = await createClusterDatabase();
}, 30_000);
afterAll(async () => {
  if (running && running.child.exitCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  await db.drop().catch(() => undefined);
});

type Outcome = { status: number; uuid?: string } | { failed: string };

/** Creates workflows one after another until the server stops answering. */
async function writer(url: string, token: string, n: number, out: Outcome[]): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      const res = await request(`${url}/svc/v1/workflows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workflow: { name: `w${n}-${i}` } }),
      });
      const body = (await res.body.json()) as { uuid?: string };
      out.push({ status: res.statusCode, ...(body.uuid ? { uuid: body.uuid } : {}) });
    } catch (err) {
      out.push({ failed: (err as { code?: string }).code ?? String(err) });
      return;
    }
  }
}

it('drains requests in flight on SIGTERM, exits 0, and loses no acknowledged write', async () => {
  const { file, rootToken } = writeConfig(db.url, {
    gateway: { ShutdownTimeout: SHUTDOWN_TIMEOUT_S },
  });
  running = spawnLauncher({ SVC_CONFIG: file });
  const url = await servingUrl(running);
  const outcomes: Outcome[] = [];
  const writers = Array.from({ length: WRITERS }, (_, n) => writer(url, rootToken, n, outcomes));
  // Let the stream get going: some writes acknowledged before the signal.
  while (outcomes.filter((o) => 'status' in o).length < 20) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const signalled = Date.now();
  running.child.kill('SIGTERM');
  const bound = new Promise<'still running'>((resolve) =>
    setTimeout(() => resolve('still running'), (SHUTDOWN_TIMEOUT_S + 10) * 1000).unref(),
  );
  const exit = await Promise.race([running.exited, bound]);
  await Promise.all(writers);
  expect({ exit, stderr: running.stderr() }).toEqual({
    exit: 0,
    stderr: 'SIGTERM: stopping (finishing requests in flight)\n',
  });
  expect(Date.now() - signalled).toBeLessThan((SHUTDOWN_TIMEOUT_S + 10) * 1000);
  // Every request either got its answer or was never taken (connection refused/closed).
  const statuses = outcomes.flatMap((o) => ('status' in o ? [o.status] : []));
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  const acknowledged = outcomes.flatMap((o) => ('uuid' in o && o.uuid ? [o.uuid] : []));
  expect(acknowledged.length).toBeGreaterThanOrEqual(20);

  running = spawnLauncher({ SVC_CONFIG: file });
  const again = await servingUrl(running);
  const listed = await request(
    `${again}/svc/v1/workflows?limit=1000&select=${encodeURIComponent('["uuid"]')}`,
    { headers: { authorization: `Bearer ${rootToken}` } },
  );
  const items = ((await listed.body.json()) as { items: { uuid: string }[] }).items;
  const kept = new Set(items.map((i) => i.uuid));
  expect(acknowledged.filter((u) => !kept.has(u))).toEqual([]);
  running.child.kill('SIGINT');
  expect(await running.exited).toBe(0);
}, 90_000);
