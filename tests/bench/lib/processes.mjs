// A deployment as it is run in production: each cluster core and the gateway in a process of
// its own (`node apps/core/dist/main.js <id>`, `node apps/gateway/dist/main.js`), reading one
// configuration file (SVC_CONFIG). The processes are stopped by the benchmarks' cleanup.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT, makeLog, sleep } from './common.mjs';
import { adminQuery, onCleanup } from './database.mjs';

const log = makeLog('bench');
const HOST = '127.0.0.1';

function canListen(port) {
  return new Promise((resolvePort) => {
    const srv = createServer();
    srv.once('error', () => resolvePort(false));
    srv.listen(port, HOST, () => srv.close(() => resolvePort(true)));
  });
}

const taken = new Set();
/** A free port below Linux's ephemeral range, so port-0 listeners elsewhere cannot take it. */
export async function freePort() {
  for (let i = 0; i < 200; i++) {
    const port = 20000 + randomInt(12000);
    if (!taken.has(port) && (await canListen(port))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free port found in 20000-31999');
}

// Environment settings that would override the configuration file's.
const OVERRIDES = new Set([
  'DATABASE_URL',
  'PORT',
  'SVC_CLUSTER_ID',
  'SVC_SYSTEM_ROOT_TOKEN',
  'SVC_DATA_DIR',
]);

// BENCH_CPU_PROF=<dir>: every process under `node --cpu-prof`, its profile written into <dir>.
export function profiling(name) {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  mkdirSync(dir, { recursive: true });
  const file = `${name.replace(/\W+/g, '-')}-${Date.now()}.cpuprofile`;
  return ['--cpu-prof', '--cpu-prof-dir', resolve(dir), '--cpu-prof-name', file];
}

/**
 * `node <args>` as a child named `name`, its output's last lines kept (`tail`) for failures;
 * an exit not asked for by stopChild is logged. `profile: false` keeps it out of BENCH_CPU_PROF.
 */
export function startChild(name, args, env, { profile = true } = {}) {
  args = [...(profile ? profiling(name) : []), ...args];
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const child = { name, proc, tail: [], exited: false, exitInfo: '', stopping: false };
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n')) if (line) child.tail.push(line);
    if (child.tail.length > 40) child.tail.splice(0, child.tail.length - 40);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  proc.on('exit', (code, signal) => {
    child.exited = true;
    child.exitInfo = signal ? `signal ${signal}` : `code ${code}`;
    if (!child.stopping)
      log(`${name} exited unexpectedly (${child.exitInfo}):\n    ${child.tail.join('\n    ')}`);
  });
  return child;
}

/** SIGTERM, then SIGKILL after 10 s (--cpu-prof writes its profile on a normal exit). */
export async function stopChild(child) {
  child.stopping = true;
  if (child.exited) return;
  const exited = new Promise((r) => child.proc.once('exit', r));
  child.proc.kill('SIGTERM');
  const ok = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!ok) {
    log(`${child.name} did not stop on SIGTERM; killing it`);
    child.proc.kill('SIGKILL');
    await exited;
  }
}

/**
 * Until `url` answers `init()` with a 2xx (or the child exits, or `timeoutMs` pass). The checks
 * go end to end (a request only our own processes can answer), so another process on the port
 * cannot pass for ours.
 */
export async function waitForHttp(child, url, init, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    if (child.exited) throw new Error(`${child.name} exited (${child.exitInfo}) before answering`);
    try {
      const res = await fetch(url, { ...init(), signal: AbortSignal.timeout(2000) });
      const text = await res.text();
      if (res.ok) return;
      last = `${res.status}: ${text.slice(0, 200)}`;
    } catch (e) {
      last = e.cause?.code ?? e.message;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${child.name} did not answer ${url} within ${timeoutMs / 1000} s (last: ${last})`,
      );
    await sleep(100);
  }
}

/**
 * Starts the clusters (`{ id: { rootToken, databaseUrl } }`, the first is the home cluster)
 * and the gateway in front of them, each in its own process; answers once the gateway
 * answers each cluster's root token.
 */
export async function startProcessDeployment(clusters) {
  const ids = Object.keys(clusters);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-deploy-'));
  const gatewayPort = await freePort();
  const corePorts = Object.fromEntries(
    await Promise.all(ids.map(async (id) => [id, await freePort()])),
  );
  const q = JSON.stringify; // JSON strings are YAML scalars
  const lines = [
    'Gateway:',
    `  Listen: ${q(`${HOST}:${gatewayPort}`)}`,
    `  HomeCluster: ${ids[0]}`,
  ];
  lines.push('Clusters:');
  for (const id of ids) {
    lines.push(
      `  ${id}:`,
      `    SystemRootToken: ${q(clusters[id].rootToken)}`,
      '    Database:',
      `      URL: ${q(clusters[id].databaseUrl)}`,
      '    Core:',
      `      Listen: ${q(`${HOST}:${corePorts[id]}`)}`,
      '    Login:',
      '      Test:',
      '        Enable: true',
    );
  }
  const configFile = join(dir, 'config.yml');
  writeFileSync(configFile, `${lines.join('\n')}\n`);
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !OVERRIDES.has(k))),
    SVC_CONFIG: configFile,
    SVC_LOG_LEVEL: process.env.SVC_BENCH_LOG ?? 'warn',
  };
  const children = ids.map((id) => startChild(`core ${id}`, ['apps/core/dist/main.js', id], env));
  const gateway = startChild('gateway', ['apps/gateway/dist/main.js'], env);
  children.push(gateway);
  const close = async () => {
    await stopChild(gateway);
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  onCleanup(close);
  const url = `http://${HOST}:${gatewayPort}`;
  for (const id of ids) {
    const token = `v2/${id}-gj3su-000000000000000/${clusters[id].rootToken}`;
    await waitForHttp(gateway, `${url}/svc/v1/users/current`, () => ({
      headers: { authorization: `Bearer ${token}` },
    }));
  }
  return {
    url,
    pids: {
      gateway: [gateway.proc.pid],
      cores: children.filter((c) => c !== gateway).map((c) => c.proc.pid),
    },
    close,
  };
}

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/**
 * CPU milliseconds (user + system) a process has used so far, with `children` also those of
 * the children it has reaped; null once it is gone.
 */
export function processCpuMs(pid, { children = false } = {}) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const reaped = children ? Number(f[13]) + Number(f[14]) : 0;
    return (Number(f[11]) + Number(f[12]) + reaped) * TICK_MS;
  } catch {
    return null;
  }
}

/** The PostgreSQL backends serving the given databases (other than this query's). */
export async function backendPids(databaseNames) {
  const { rows } = await adminQuery(
    'SELECT pid FROM pg_stat_activity WHERE datname = ANY($1) AND pid <> pg_backend_pid()',
    [databaseNames],
  );
  return rows.map((r) => r.pid);
}

/**
 * CPU milliseconds per call of `run` over `n` sequential calls, for each group of processes
 * `groups()` names (e.g. gateway, cores, postgres backends) and in all: what one request costs
 * the machine, whatever else runs on it. Null off Linux.
 */
export async function cpuPerCall(groups, run, n) {
  if (!existsSync('/proc/self/stat')) return null;
  const snapshot = async () => {
    const out = new Map();
    for (const [name, pids] of Object.entries(await groups()))
      for (const pid of pids) out.set(pid, { name, ms: processCpuMs(pid) ?? 0 });
    return out;
  };
  const before = await snapshot();
  for (let i = 0; i < n; i++) await run(i);
  const after = await snapshot();
  const perGroup = { all: 0 };
  for (const [pid, { name, ms }] of after) {
    const used = (ms - (before.get(pid)?.ms ?? 0)) / n;
    perGroup[name] = (perGroup[name] ?? 0) + used;
    perGroup.all += used;
  }
  return perGroup;
}
