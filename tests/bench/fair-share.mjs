// Fair share under a pathological client (run with `pnpm build && node tests/bench/fair-share.mjs`).
//
// One cluster as deployed (core and gateway each in a process of their own, default limits: 10
// database sessions, 8 requests in progress per token, 1,000 filter conditions). User A owns
// BENCH_FAIR_ROWS collections and sends, from BENCH_FAIR_LISTS connections at once, the same
// pathological list again and again: BENCH_FAIR_CONDITIONS `["any","ilike","%x%"]` conditions
// in a POST with `_method=GET`. User B meanwhile reads one of its collections by uuid. Both
// loads come from Debian's `wrk`, each in a process of its own (nothing in this process sends
// a measured request). It reports B's latency alone and under A's load (p50, p90, p99 from
// `wrk --latency`), B's non-2xx answers, and what A's lists were answered (200, 422, 429, 503).
// Target: B's p99 under load ≤ 500 ms with every answer a 200.
//
// Environment: BENCH_SECONDS (measured seconds, default 20), BENCH_FAIR_LISTS (default 10),
// BENCH_FAIR_CONDITIONS (default 1000), BENCH_FAIR_ROWS (default 3000), BENCH_FAIR_READERS
// (B's connections, default 4), DATABASE_URL (server).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load1, makeLog, numberEnv, randomAlnum, sleep } from './lib/common.mjs';
import { createBenchDatabase, onCleanup, runMain } from './lib/database.mjs';
import { Http } from './lib/deployment.mjs';
import { startProcessDeployment } from './lib/processes.mjs';
import { jsonLine, out, table } from './lib/report.mjs';

const log = makeLog('bench:fair-share');
const SECONDS = numberEnv('BENCH_SECONDS', 20, { integer: true });
const LISTS = numberEnv('BENCH_FAIR_LISTS', 10, { integer: true });
const CONDITIONS = numberEnv('BENCH_FAIR_CONDITIONS', 1000, { integer: true });
const ROWS = numberEnv('BENCH_FAIR_ROWS', 3000, { integer: true });
const READERS = numberEnv('BENCH_FAIR_READERS', 4, { integer: true });
const TARGET_P99_MS = 500;
const CLUSTER = 'fair1';

const work = mkdtempSync(join(tmpdir(), 'svc-bench-fair-'));
onCleanup(() => rmSync(work, { recursive: true, force: true }));

/** A wrk Lua script: the request, and (one thread) the count of answers by status. */
function script(name, { method, body, headers }) {
  const lua = [
    `wrk.method = ${JSON.stringify(method)}`,
    ...(body ? [`wrk.body = ${JSON.stringify(body)}`] : []),
    ...Object.entries(headers).map(
      ([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
    ),
    'statuses = {}',
    'function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end',
    'local threads = {}',
    'function setup(thread) table.insert(threads, thread) end',
    'function done(summary, latency, requests)',
    '  local total = {}',
    '  for _, t in ipairs(threads) do',
    '    for s, n in pairs(t:get("statuses")) do total[s] = (total[s] or 0) + n end',
    '  end',
    '  for s, n in pairs(total) do io.write(string.format("status %d %d\\n", s, n)) end',
    'end',
  ].join('\n');
  const file = join(work, `${name}.lua`);
  writeFileSync(file, lua);
  return file;
}

/** `wrk` in its own process; resolves its report: latency percentiles, requests, statuses. */
function wrk(url, { connections, seconds, lua, timeoutSeconds = 60 }) {
  const args = ['-t', '1', '-c', String(connections), '-d', `${seconds}s`, '--latency'];
  args.push('--timeout', `${timeoutSeconds}s`, '-s', lua, url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    onCleanup(() => child.exitCode === null && child.kill('SIGKILL'));
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited ${code}:\n${text}`));
      const ms = (v, unit) => Number(v) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[unit];
      const pct = (p) => {
        const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)$`, 'm').exec(text);
        return m ? ms(m[1], m[2]) : null;
      };
      const statuses = {};
      for (const m of text.matchAll(/^status (\d+) (\d+)$/gm)) statuses[m[1]] = Number(m[2]);
      resolve({
        p50: pct(50),
        p90: pct(90),
        p99: pct(99),
        requests: Number(/(\d+) requests in/.exec(text)?.[1] ?? 0),
        statuses,
        text,
      });
    });
  });
}

async function makeUser(http, root, email) {
  const user = await http.request('POST', '/svc/v1/users', {
    token: root,
    json: { user: { email, is_active: true } },
  });
  const token = await http.request('POST', '/svc/v1/api_client_authorizations', {
    token: root,
    json: { api_client_authorization: { owner_uuid: user.body.uuid } },
  });
  if (token.status !== 200) throw new Error(`token: ${JSON.stringify(token.body)}`);
  return `v2/${token.body.uuid}/${token.body.api_token}`;
}

const WORDS = ['sample', 'run', 'reads', 'assembly', 'x-ray', 'index', 'plate', 'box'];

async function main() {
  const database = await createBenchDatabase('svc_bench_fair_');
  const rootToken = randomAlnum(40);
  const deployment = await startProcessDeployment({
    [CLUSTER]: { rootToken, databaseUrl: database.url },
  });
  const http = new Http(deployment.url);
  const a = await makeUser(http, rootToken, `a-${randomAlnum(6)}@example.com`);
  const b = await makeUser(http, rootToken, `b-${randomAlnum(6)}@example.com`);
  log(`creating ${ROWS} collections for user A`);
  for (let i = 0; i < ROWS; i++) {
    const name = `${WORDS[i % WORDS.length]} ${i} ${WORDS[(i * 7) % WORDS.length]}`;
    const res = await http.request('POST', '/svc/v1/collections', {
      token: a,
      json: { collection: { name, description: `${name} of lab ${i % 50}` } },
    });
    if (res.status !== 200) throw new Error(`create: ${res.status}`);
  }
  const mine = await http.request('POST', '/svc/v1/collections', {
    token: b,
    json: { collection: { name: 'b' } },
  });
  const getUrl = `${deployment.url}/svc/v1/collections/${mine.body.uuid}`;
  const filters = JSON.stringify(Array(CONDITIONS).fill(['any', 'ilike', '%x%']));
  const listLua = script('lists', {
    method: 'POST',
    body: `_method=GET&limit=10&filters=${encodeURIComponent(filters)}`,
    headers: { Authorization: `Bearer ${a}`, 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  const getLua = script('get', { method: 'GET', headers: { Authorization: `Bearer ${b}` } });

  log(`user B alone: ${READERS} connections, ${SECONDS} s`);
  const alone = await wrk(getUrl, { connections: READERS, seconds: SECONDS, lua: getLua });
  log(`user A: ${LISTS} pathological lists (${CONDITIONS} conditions) in flight`);
  const lists = wrk(`${deployment.url}/svc/v1/collections`, {
    connections: LISTS,
    seconds: SECONDS + 30, // long enough for lists to reach API.MaxListDuration (20 s)
    lua: listLua,
  });
  await sleep(5_000); // the lists are running before B is measured
  log(`user B under A's load: ${READERS} connections, ${SECONDS} s (load average ${load1()})`);
  const loaded = await wrk(getUrl, { connections: READERS, seconds: SECONDS, lua: getLua });
  const pathological = await lists;
  await deployment.close();

  const non2xx = (r) =>
    Object.entries(r.statuses)
      .filter(([s]) => !s.startsWith('2'))
      .reduce((n, [, c]) => n + c, 0);
  out();
  out(`fair share: ${LISTS} lists of ${CONDITIONS} conditions from one token, over ${ROWS} rows`);
  out('(the machine may be shared: figures are noisy; ratios come from one run)');
  out(
    table([
      ['user B GET by uuid', 'requests', 'p50 ms', 'p90 ms', 'p99 ms', 'non-2xx'],
      ['alone', alone.requests, alone.p50, alone.p90, alone.p99, non2xx(alone)],
      ["under A's lists", loaded.requests, loaded.p50, loaded.p90, loaded.p99, non2xx(loaded)],
    ]),
  );
  out(`user A's lists answered: ${JSON.stringify(pathological.statuses)}`);
  const ok = loaded.p99 !== null && loaded.p99 <= TARGET_P99_MS && non2xx(loaded) === 0;
  out(`B's p99 under load ≤ ${TARGET_P99_MS} ms, all 200: ${ok ? 'PASS' : 'FAIL'}`);
  jsonLine({
    bench: 'fair-share',
    lists: LISTS,
    conditions: CONDITIONS,
    rows: ROWS,
    alone: { p50: alone.p50, p90: alone.p90, p99: alone.p99, requests: alone.requests },
    loaded: { p50: loaded.p50, p90: loaded.p90, p99: loaded.p99, requests: loaded.requests },
    loadedNon2xx: non2xx(loaded),
    listStatuses: pathological.statuses,
    pass: ok,
  });
}

runMain(main);
