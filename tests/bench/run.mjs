// `pnpm bench`: the foundation benchmark (run through `pnpm bench`, which builds first).
//
// On loopback, in one run: a fresh PostgreSQL database, the cluster core and the gateway as
// separate child processes (exactly as deployed: `node apps/core/dist/main.js <id>` and
// `node apps/gateway/dist/main.js` with SVC_CONFIG), plus a bare express 5 hello-world child as
// the baseline. It then measures, with the same connections and duration for each:
//   a. GET / on the bare express hello-world;
//   b. GET /svc/v1/groups/<uuid> through the gateway (root token);
//   c. the same GET straight to the core, as the gateway's typed call (POST /_call/<endpoint id>)
//      with a proof signed afresh per request by this process;
//   d. a list of 100 collections through the gateway as a regular user, and the same 100 rows
//      from a bare express 5 + node-postgres handler (the list's baseline);
//   e. POST /svc/v1/workflows through the gateway and straight to the core.
// and prints a table, the ratios with their targets (PASS/FAIL, informational: exit status 0
// either way), and the same figures as one JSON line at the very end.
// Exit status is non-zero only when something broke: a process failed, a request errored or
// answered non-2xx.
//
// Environment:
//   BENCH_SECONDS          measured seconds per scenario (default 10; at most 50, since a
//                          gateway proof is valid 60 s and is signed once per measurement)
//   BENCH_WARMUP_SECONDS   warm-up seconds before each scenario, and for every read path once
//                          before any is measured (default 2)
//   BENCH_CONNECTIONS      concurrent connections (default 32)
//   BENCH_QUICK=1 / --quick  smoke run: 2 s per scenario, 0.5 s warm-up
//   BENCH_ONLY             comma-separated scenario ids to run (express-get, gateway-get,
//                          gateway-get-v2-admin, gateway-get-v2, core-get, express-pg-list,
//                          gateway-list, gateway-create, core-create); ratios need both sides
//   BENCH_CPU_PROF=<dir>   run the gateway and the core under `node --cpu-prof` into <dir>
//   DATABASE_URL           the PostgreSQL server to use (only its server part is used; default
//                          postgres://postgres@127.0.0.1:5432)
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startChild, stopChild, waitForHttp } from './lib/processes.mjs';
import { cpuTimes } from './lib/timing.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const pg = require('pg');

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
for (const f of [
  'apps/core/dist/main.js',
  'apps/gateway/dist/main.js',
  'packages/ids/dist/index.js',
  'packages/contract/dist/index.js',
]) {
  if (!existsSync(join(ROOT, f))) {
    process.stderr.write(`[bench] ${f} is missing: run \`pnpm build\` (or use \`pnpm bench\`)\n`);
    process.exit(1);
  }
}
const ids = require(join(ROOT, 'packages/ids/dist/index.js'));
// The identity the gateway forwards for the root token: the contract's (older builds kept it
// in the gateway's auth module).
const rootIdentity =
  require(join(ROOT, 'packages/contract/dist/index.js')).rootIdentity ??
  require(join(ROOT, 'apps/gateway/dist/auth/authenticate.js')).rootIdentity;

const CLUSTER = 'bnch1';
const HOST = '127.0.0.1';

// ---------------------------------------------------------------- options

const quick =
  process.argv.includes('--quick') || /^(1|true|yes)$/i.test(process.env.BENCH_QUICK ?? '');
const numberEnv = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
};
const SECONDS = numberEnv('BENCH_SECONDS', quick ? 2 : 10);
const WARMUP_SECONDS = numberEnv('BENCH_WARMUP_SECONDS', quick ? 0.5 : 2);
const CONNECTIONS = Math.round(numberEnv('BENCH_CONNECTIONS', 32));
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
if (SECONDS > 50)
  throw new Error('BENCH_SECONDS must be at most 50 (a gateway proof is valid 60 s)');

const TARGETS = {
  gatewayVsExpress: 0.35, // gateway GET req/s ÷ bare express req/s, at least
  hopP50Ms: 1, // gateway GET p50 − core GET p50, at most
};

// ---------------------------------------------------------------- small helpers

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';
const randomAlnum = (n) => Array.from({ length: n }, () => ALNUM[randomInt(ALNUM.length)]).join('');
const log = (line) => process.stderr.write(`[bench] ${line}\n`);

function adminUrlFrom(databaseUrl) {
  const url = new URL(databaseUrl || 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = '/postgres';
  url.search = '';
  return url;
}

async function adminQuery(adminUrl, text) {
  const client = new pg.Client({
    connectionString: adminUrl.toString(),
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------- child processes

/** @type {Map<string, ReturnType<typeof startChild>>} */
const children = new Map();
let stopping = false;

const start = (name, args, env, options) =>
  children.set(name, startChild(name, args, env, options));

async function stopChildren() {
  stopping = true;
  await Promise.all([...children.values()].map(stopChild));
}

const waitFor = (name, url, init) => waitForHttp(children.get(name), url, init);

// ---------------------------------------------------------------- CPU accounting (Linux)

/**
 * Where the CPU goes, per request: this process (the load generator), each child, the
 * PostgreSQL backends of the bench database, and the rest of the machine (kernel work not
 * charged to a process, other programs). Read from /proc; absent elsewhere.
 */
const HAS_PROC = existsSync('/proc/self/stat') && existsSync('/proc/stat');
const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

function procCpuUs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_US; // utime + stime
  } catch {
    return null;
  }
}

const machineBusyUs = () => cpuTimes().busy * TICK_US;

async function backendPids() {
  if (!state.dbName) return [];
  const { rows } = await adminQuery(
    state.adminUrl,
    `SELECT pid FROM pg_stat_activity WHERE datname = '${state.dbName}' AND pid <> pg_backend_pid()`,
  ).catch(() => ({ rows: [] }));
  return rows.map((r) => r.pid);
}

async function cpuSnapshot() {
  if (!HAS_PROC) return null;
  const backends = {};
  for (const pid of await backendPids()) backends[pid] = procCpuUs(pid) ?? 0;
  const kids = {};
  for (const [name, child] of children) kids[name] = procCpuUs(child.proc.pid) ?? 0;
  const self = process.cpuUsage();
  return { pg: backends, kids, self: self.user + self.system, machine: machineBusyUs() };
}

/** CPU µs per request between two snapshots. */
async function cpuPerRequest(before, after, requests) {
  if (!before || !after || requests === 0) return null;
  let pgUs = 0;
  for (const pid of new Set([...Object.keys(before.pg), ...Object.keys(after.pg)])) {
    const end = after.pg[pid] ?? procCpuUs(pid);
    if (end !== null && end !== undefined) pgUs += end - (before.pg[pid] ?? 0);
  }
  const per = (us) => us / requests;
  const out = { loadgen: per(after.self - before.self), postgres: per(pgUs) };
  let known = after.self - before.self + pgUs;
  for (const name of Object.keys(after.kids)) {
    const us = after.kids[name] - (before.kids[name] ?? 0);
    out[name] = per(us);
    known += us;
  }
  out.machine = per(after.machine - before.machine);
  out.other = per(after.machine - before.machine - known);
  return out;
}

// ---------------------------------------------------------------- measurement

/**
 * The load generator, autocannon, runs in this process. This process does nothing else while
 * it measures, so a separate child would isolate nothing and only add IPC; the host has two
 * cores, which the load generator shares with the server processes in every scenario alike.
 * Latencies are taken from autocannon's per-response event in fractional milliseconds (its
 * own histogram rounds to whole milliseconds, too coarse for a 1 ms target).
 */
async function load({ url, method = 'GET', headers = {}, body, seconds, setupRequest }) {
  let times = new Float64Array(1 << 16);
  let n = 0;
  const instance = autocannon({
    url,
    method,
    headers,
    body,
    // Direct calls to a core carry a proof that is usable once: signed afresh per request.
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode < 200 || statusCode >= 300) return;
    if (n === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[n++] = responseTime;
  });
  const result = await instance;
  const sorted = times.subarray(0, n).sort();
  const pct = (p) => (n === 0 ? NaN : sorted[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))]);
  return {
    rps: result.requests.total / result.duration,
    p50: pct(0.5),
    p99: pct(0.99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
    seconds: result.duration,
  };
}

/** Warm-up, then the measurement; `prepare` gives fresh request options for each. */
async function scenario(id, label, prepare) {
  if (ONLY.length > 0 && !ONLY.includes(id)) return null;
  log(`${label}: ${WARMUP_SECONDS} s warm-up, ${SECONDS} s at ${CONNECTIONS} connections`);
  const warm = await load({ ...prepare(), seconds: WARMUP_SECONDS });
  const before = await cpuSnapshot();
  const r = await load({ ...prepare(), seconds: SECONDS });
  const after = await cpuSnapshot();
  r.cpu = await cpuPerRequest(before, after, r.total);
  r.id = id;
  r.label = label;
  r.warmupNon2xx = warm.non2xx;
  r.warmupErrors = warm.errors;
  return r;
}

// ---------------------------------------------------------------- the run

const state = { adminUrl: null, dbName: null, tmp: null };
let cleanedUp = null;

function cleanup() {
  cleanedUp ??= (async () => {
    await stopChildren().catch((e) => log(`stopping children: ${e.message}`));
    if (state.dbName) {
      await adminQuery(state.adminUrl, `DROP DATABASE IF EXISTS ${state.dbName} WITH (FORCE)`).then(
        () => log(`dropped database ${state.dbName}`),
        (e) => log(`could not drop database ${state.dbName}: ${e.message}`),
      );
    }
    if (state.tmp) rmSync(state.tmp, { recursive: true, force: true });
  })();
  return cleanedUp;
}

// A reader that goes away (`pnpm bench | head`) must not stop the cleanup.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
process.on('uncaughtException', (err) => {
  try {
    process.stderr.write(`[bench] uncaught: ${err?.stack ?? err}\n`);
  } catch {
    // stderr is gone too
  }
  void cleanup().finally(() => process.exit(1));
});

// `on`, not `once`: from a terminal under tests/bench/all.mjs the signal arrives twice (the
// terminal's and the one all.mjs forwards), and the second must not kill us mid-cleanup.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) return; // cleaning up already
    stopping = true; // the children get a terminal's signal too: their exit is expected
    for (const child of children.values()) child.stopping = true;
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main() {
  // 1. A fresh database.
  state.adminUrl = adminUrlFrom(process.env.DATABASE_URL);
  const dbName = `svc_bench_${randomAlnum(10)}`;
  await adminQuery(state.adminUrl, `CREATE DATABASE ${dbName}`);
  state.dbName = dbName;
  const dbUrl = new URL(state.adminUrl);
  dbUrl.pathname = `/${dbName}`;
  log(`database ${dbName} on ${dbUrl.host}`);

  // 2. The configuration, the core, the gateway and the baseline.
  state.tmp = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const rootToken = randomAlnum(40);
  const [gatewayPort, corePort, expressPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const configFile = join(state.tmp, 'config.yml');
  const q = JSON.stringify; // JSON strings are YAML scalars
  writeFileSync(
    configFile,
    [
      'Gateway:',
      `  Listen: ${q(`${HOST}:${gatewayPort}`)}`,
      `  HomeCluster: ${CLUSTER}`,
      'Clusters:',
      `  ${CLUSTER}:`,
      `    SystemRootToken: ${q(rootToken)}`,
      '    Database:',
      `      URL: ${q(dbUrl.toString())}`,
      '    Core:',
      `      Listen: ${q(`${HOST}:${corePort}`)}`,
      '    Login:',
      '      Test:',
      '        Enable: true',
      // Throughput with one token over BENCH_CONNECTIONS (32) connections: above the default
      // limit of requests in progress per token (8; tests/bench/fair-share.mjs keeps it).
      '    API:',
      '      MaxConcurrentRequestsPerToken: 1000',
      '',
    ].join('\n'),
  );

  // The environment overrides (DATABASE_URL, PORT, …) would rewrite the file's settings.
  const overrides = new Set([
    'DATABASE_URL',
    'PORT',
    'SVC_CLUSTER_ID',
    'SVC_SYSTEM_ROOT_TOKEN',
    'SVC_DATA_DIR',
  ]);
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !overrides.has(k))),
    SVC_CONFIG: configFile,
    SVC_LOG_LEVEL: 'warn',
  };
  // BENCH_CPU_PROF: both run under --cpu-prof (the shared process helpers add it).
  start('core', ['apps/core/dist/main.js', CLUSTER], env);
  start('gateway', ['apps/gateway/dist/main.js'], env);

  // The core trusts only the gateway's proof: a call is `POST /_call/<endpoint id>` with the
  // identity and typed options as JSON, signed as the gateway signs it (each proof usable once).
  const key = ids.proofKey(rootToken);
  const signer = new ids.ProofSigner();
  const requestId = `req-bench${randomAlnum(16)}`;
  const identity = rootIdentity(CLUSTER);
  const coreCall = (endpoint, options) => {
    const path = `/_call/${endpoint}`;
    const body = JSON.stringify({ identity, options });
    const headers = () => ({
      'content-type': 'application/json',
      'x-request-id': requestId,
      'x-svc-gateway-proof': signer.sign(key, { method: 'POST', url: path, requestId, body }),
    });
    return { path, body, headers };
  };

  const gatewayUrl = `http://${HOST}:${gatewayPort}`;
  const coreUrl = `http://${HOST}:${corePort}`;
  const expressUrl = `http://${HOST}:${expressPort}`;
  const auth = { authorization: `Bearer ${rootToken}` };
  await Promise.all([
    waitFor('core', `${coreUrl}/_call/svc.groups.list`, () => {
      const c = coreCall('svc.groups.list', {});
      return { method: 'POST', headers: c.headers(), body: c.body };
    }),
    waitFor('gateway', `${gatewayUrl}/svc/v1/groups`, () => ({ headers: auth })),
  ]);
  log('core and gateway are up');

  // 3. Objects to read.
  const json = { 'content-type': 'application/json' };
  const post = async (path, body) => {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { ...auth, ...json },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text);
  };
  const group = await post('/svc/v1/groups', { group: { name: 'bench', group_class: 'project' } });
  await post('/svc/v1/groups', { group: { name: 'bench-2', group_class: 'project' } });
  await post('/svc/v1/workflows', { workflow: { name: 'w' } });
  const groupPath = `/svc/v1/groups/${group.uuid}`;
  // A regular user with a v2 token, reading its own group (token cache + permission check).
  const user = await post('/svc/v1/users', {
    user: { email: 'bench@example.com', username: 'bench', is_active: true },
  });
  const token = await post('/svc/v1/api_client_authorizations', {
    api_client_authorization: { owner_uuid: user.uuid },
  });
  const userAuth = { authorization: `Bearer v2/${token.uuid}/${token.api_token}` };
  const userGroupRes = await fetch(`${gatewayUrl}/svc/v1/groups`, {
    method: 'POST',
    headers: { ...userAuth, ...json },
    body: JSON.stringify({ group: { name: 'bench-user', group_class: 'project' } }),
  });
  const userGroupPath = `/svc/v1/groups/${(await userGroupRes.json()).uuid}`;
  // 100 collections of that user, for a list page as a regular user (and the same rows from a
  // bare express + pg handler, the baseline of the list target).
  for (let i = 0; i < 100; i++) {
    const made = await fetch(`${gatewayUrl}/svc/v1/collections`, {
      method: 'POST',
      headers: { ...userAuth, ...json },
      body: JSON.stringify({ collection: { name: `bench ${i}`, properties: { i } } }),
    });
    if (!made.ok) throw new Error(`collection ${i}: ${made.status} ${await made.text()}`);
  }
  start(
    'express',
    [
      join(ROOT, 'tests/bench/hello-express.mjs'),
      HOST,
      String(expressPort),
      dbUrl.toString(),
      user.uuid,
    ],
    env,
    { profile: false },
  );
  await waitFor('express', `${expressUrl}/`, () => ({}));
  const listPath = '/svc/v1/collections?limit=100&count=none';
  // A v2 token of the root token's own user (the system user): the same GET as with the root
  // token, so the difference is the token form alone (lookup and cache), not permission checks.
  const rootV2 = await post('/svc/v1/api_client_authorizations', { api_client_authorization: {} });
  const rootV2Auth = { authorization: `Bearer v2/${rootV2.uuid}/${rootV2.api_token}` };

  // Check each request once before loading it, so a broken setup says why.
  const check = async (label, url, init) => {
    const res = await fetch(url, init);
    const text = await res.text();
    if (!res.ok)
      throw new Error(`${label}: ${init?.method ?? 'GET'} ${url} answered ${res.status}: ${text}`);
  };
  const workflowBody = JSON.stringify({ workflow: { name: 'w' } });
  await check('express', `${expressUrl}/`);
  await check('express + pg rows', `${expressUrl}/rows`);
  await check('gateway list', `${gatewayUrl}${listPath}`, { headers: userAuth });
  await check('gateway GET', `${gatewayUrl}${groupPath}`, { headers: auth });
  const coreGet = coreCall('svc.groups.get', { uuid: group.uuid });
  await check('core GET', `${coreUrl}${coreGet.path}`, {
    method: 'POST',
    headers: coreGet.headers(),
    body: coreGet.body,
  });
  await check('gateway GET v2 token', `${gatewayUrl}${userGroupPath}`, { headers: userAuth });
  await check('gateway GET admin v2 token', `${gatewayUrl}${groupPath}`, { headers: rootV2Auth });
  await check('gateway create', `${gatewayUrl}/svc/v1/workflows`, {
    method: 'POST',
    headers: { ...auth, ...json },
    body: workflowBody,
  });
  const coreCreate = coreCall('svc.workflows.create', { attributes: { name: 'w' } });
  await check('core create', `${coreUrl}${coreCreate.path}`, {
    method: 'POST',
    headers: coreCreate.headers(),
    body: coreCreate.body,
  });

  // 4. Warm every read path once before any is measured: the first gateway scenario would
  // otherwise also pay for compiling the paths the later ones share (under load, its own
  // warm-up is not enough, and its ratio came out lowest whichever token it used).
  const reads = [
    { url: `${gatewayUrl}${groupPath}`, headers: auth },
    { url: `${gatewayUrl}${groupPath}`, headers: rootV2Auth },
    { url: `${gatewayUrl}${userGroupPath}`, headers: userAuth },
    {
      url: `${coreUrl}${coreGet.path}`,
      method: 'POST',
      body: coreGet.body,
      setupRequest: (req) => ({ ...req, headers: coreGet.headers() }),
    },
    { url: `${gatewayUrl}${listPath}`, headers: userAuth },
  ];
  log(`warming every read path: ${WARMUP_SECONDS} s each`);
  for (const opts of reads) {
    const warm = await load({ ...opts, seconds: WARMUP_SECONDS });
    if (warm.non2xx + warm.errors > 0) throw new Error(`warm-up of ${opts.url} failed`);
  }

  // 5. Measure.
  const results = [];
  const add = (r) => r && results.push(r);
  add(await scenario('express-get', 'express GET /', () => ({ url: `${expressUrl}/` })));
  add(
    await scenario('gateway-get', 'gateway GET group', () => ({
      url: `${gatewayUrl}${groupPath}`,
      headers: auth,
    })),
  );
  add(
    await scenario('gateway-get-v2-admin', 'gateway GET group, admin v2 token', () => ({
      url: `${gatewayUrl}${groupPath}`,
      headers: rootV2Auth,
    })),
  );
  add(
    await scenario('gateway-get-v2', 'gateway GET group, user v2 token', () => ({
      url: `${gatewayUrl}${userGroupPath}`,
      headers: userAuth,
    })),
  );
  add(
    await scenario('core-get', 'core GET group (direct)', () => ({
      url: `${coreUrl}${coreGet.path}`,
      method: 'POST',
      body: coreGet.body,
      setupRequest: (req) => ({ ...req, headers: coreGet.headers() }),
    })),
  );
  add(
    await scenario('express-pg-list', 'express + pg, 100 rows', () => ({
      url: `${expressUrl}/rows`,
    })),
  );
  add(
    await scenario('gateway-list', 'gateway list 100 collections, user v2 token', () => ({
      url: `${gatewayUrl}${listPath}`,
      headers: userAuth,
    })),
  );
  add(
    await scenario('gateway-create', 'gateway POST workflow', () => ({
      url: `${gatewayUrl}/svc/v1/workflows`,
      method: 'POST',
      headers: { ...auth, ...json },
      body: workflowBody,
    })),
  );
  add(
    await scenario('core-create', 'core POST workflow (direct)', () => ({
      url: `${coreUrl}${coreCreate.path}`,
      method: 'POST',
      body: coreCreate.body,
      setupRequest: (req) => ({ ...req, headers: coreCreate.headers() }),
    })),
  );

  const broken = [...children.entries()].filter(([, c]) => c.exited).map(([name]) => name);
  report(results, broken);
  const failed =
    broken.length > 0 ||
    results.some((r) => r.non2xx + r.errors + r.warmupNon2xx + r.warmupErrors > 0);
  return failed ? 1 : 0;
}

// ---------------------------------------------------------------- report

function report(results, broken) {
  const by = Object.fromEntries(results.map((r) => [r.id, r]));
  const ratio = (a, b) => (by[a] && by[b] ? by[a].rps / by[b].rps : null);
  const figures = {
    gatewayGetVsExpress: ratio('gateway-get', 'express-get'),
    gatewayGetVsCoreGet: ratio('gateway-get', 'core-get'),
    userV2GetVsExpress: ratio('gateway-get-v2', 'express-get'),
    listVsExpressPg: ratio('gateway-list', 'express-pg-list'),
    v2TokenVsRootToken: ratio('gateway-get-v2-admin', 'gateway-get'),
    userV2VsRootToken: ratio('gateway-get-v2', 'gateway-get'),
    gatewayCreateVsCoreCreate: ratio('gateway-create', 'core-create'),
    gatewayHopP50Ms:
      by['gateway-get'] && by['core-get'] ? by['gateway-get'].p50 - by['core-get'].p50 : null,
  };

  const f = (x, d = 2) => (x === null || Number.isNaN(x) ? 'n/a' : x.toFixed(d));
  const rows = [
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
    ...results.map((r) => [
      r.label,
      f(r.rps, 0),
      f(r.p50),
      f(r.p99),
      String(r.non2xx),
      String(r.errors),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) =>
    row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [];
  out.push('');
  out.push(
    `svc bench: ${CONNECTIONS} connections, ${SECONDS} s per scenario after ${WARMUP_SECONDS} s warm-up, ` +
      `node ${process.version}, ${cpus().length} CPUs`,
  );
  out.push(line(rows[0]));
  out.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows.slice(1)) out.push(line(row));
  out.push('');
  const verdict = (ok) => (ok === null ? 'n/a ' : ok ? 'PASS' : 'FAIL');
  const g = figures.gatewayGetVsExpress;
  const h = figures.gatewayHopP50Ms;
  out.push(
    `gateway GET / bare express        ${f(g)}   target >= ${TARGETS.gatewayVsExpress}   ${verdict(g === null ? null : g >= TARGETS.gatewayVsExpress)}`,
  );
  const verdictAtLeast = (x, min) => verdict(x === null ? null : x >= min);
  out.push(
    `gateway GET / direct core GET     ${f(figures.gatewayGetVsCoreGet)}   target >= 0.75   ${verdictAtLeast(figures.gatewayGetVsCoreGet, 0.75)}`,
  );
  out.push(
    `user v2 GET / bare express        ${f(figures.userV2GetVsExpress)}   target >= 0.30   ${verdictAtLeast(figures.userV2GetVsExpress, 0.3)}`,
  );
  out.push(
    `list of 100 / express + pg        ${f(figures.listVsExpressPg)}   target >= 0.50   ${verdictAtLeast(figures.listVsExpressPg, 0.5)}`,
  );
  const v = figures.v2TokenVsRootToken;
  out.push(
    `v2-token GET / root-token GET     ${f(v)}   target >= 0.80   ${verdict(v === null ? null : v >= 0.8)}   (same user, admin)`,
  );
  out.push(
    `user v2 GET / root-token GET      ${f(figures.userV2VsRootToken)}   (a regular user: token and permission checks)`,
  );
  out.push(`gateway create / direct create    ${f(figures.gatewayCreateVsCoreCreate)}`);
  out.push(
    `gateway hop added p50 (ms)        ${f(h)}   target <= ${TARGETS.hopP50Ms}      ${verdict(h === null ? null : h <= TARGETS.hopP50Ms)}`,
  );
  if (results.some((r) => r.cpu)) {
    const cols = ['loadgen', 'express', 'gateway', 'core', 'postgres', 'other', 'machine'];
    const cpuRows = [
      ['CPU µs per request', ...cols],
      ...results.map((r) => [r.label, ...cols.map((c) => (r.cpu ? f(r.cpu[c], 0) : 'n/a'))]),
    ];
    const w = cpuRows[0].map((_, i) => Math.max(...cpuRows.map((row) => row[i].length)));
    const cl = (row) => row.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ');
    out.push('');
    out.push(cl(cpuRows[0]));
    out.push(w.map((x) => '-'.repeat(x)).join('  '));
    for (const row of cpuRows.slice(1)) out.push(cl(row));
    out.push(
      `(machine: all busy CPU of the host per request, ${cpus().length} CPUs; other: machine − the processes listed)`,
    );
  }
  if (broken.length > 0) out.push(`BROKEN: ${broken.join(', ')} exited during the run`);
  const bad = results.filter((r) => r.non2xx + r.errors + r.warmupNon2xx + r.warmupErrors > 0);
  if (bad.length > 0)
    out.push(`BROKEN: non-2xx or errors in ${bad.map((r) => r.label).join(', ')}`);
  out.push('');
  process.stdout.write(`${out.join('\n')}\n`);

  const round = (x, d) => (x === null || Number.isNaN(x) ? null : Number(x.toFixed(d)));
  const summary = {
    bench: 'svc-foundation',
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    node: process.version,
    cpus: cpus().length,
    scenarios: Object.fromEntries(
      results.map((r) => [
        r.id,
        {
          rps: round(r.rps, 0),
          p50Ms: round(r.p50, 3),
          p99Ms: round(r.p99, 3),
          non2xx: r.non2xx,
          errors: r.errors,
          requests: r.total,
          ...(r.cpu
            ? {
                cpuUsPerRequest: Object.fromEntries(
                  Object.entries(r.cpu).map(([k, v]) => [k, round(v, 0)]),
                ),
              }
            : {}),
        },
      ]),
    ),
    ratios: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, round(v, 3)])),
    targets: {
      gatewayGetVsExpress: {
        min: TARGETS.gatewayVsExpress,
        pass: g === null ? null : g >= TARGETS.gatewayVsExpress,
      },
      gatewayHopP50Ms: { max: TARGETS.hopP50Ms, pass: h === null ? null : h <= TARGETS.hopP50Ms },
    },
    broken: broken.length > 0 || bad.length > 0,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

// ---------------------------------------------------------------- entry

const code = await main().catch((err) => {
  log(`failed: ${err?.stack ?? err}`);
  for (const [name, child] of children) {
    if (child.tail.length > 0)
      log(`${name} output (last lines):\n    ${child.tail.join('\n    ')}`);
  }
  return 1;
});
await cleanup();
process.exit(code);
