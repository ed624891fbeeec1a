// Execution benchmark (issue "containers actually run"), local backend only:
//
//   node tests/bench/execution.mjs            (after `pnpm build`)
//   BENCH_RUNS=10 BENCH_QUEUE=50 node tests/bench/execution.mjs
//
// Starts the launcher (`pnpm start`'s) on a fresh database of the PostgreSQL server at
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432, dropped at the end; BENCH_DB=embedded
// uses the embedded PostgreSQL in the temporary data directory instead) and blocks in a temporary
// data directory, with `Containers.Local.MaxVCPUs` = BENCH_SLOTS (default 32; `MaxRAM` 128 MiB a
// slot) and a local dispatcher as a process of its own (`svc-dispatcher`, the same code as the
// embedded one). It saves a one-layer busybox image (Debian's busybox-static), then commits
// BENCH_RUNS requests running `true` one after another (each unique, so none is reused) and
// reports commit → Running and commit → Final p50/p90, and the runner's own peak RSS (VmHWM
// of the runner processes seen while they ran). Then the dispatcher stops, BENCH_QUEUE
// (default 1,000) one-second containers (`sleep 1`, 1 VCPU each) are committed, a dispatcher
// starts again, and the time until all are Final is compared with the ideal
// BENCH_QUEUE / BENCH_SLOTS seconds. Then, when Slurm is installed, BENCH_SLURM_RUNS
// (default 5; 0 skips it) `true` containers through a single-node Slurm of their own.
// Then (BENCH_BIG_INPUT_MIB, default 4096; 0 skips it) one container hashes an input file of
// that size mounted from a collection, run by a fresh dispatcher.
// Targets: commit → Running p50 ≤ 1 s with the image cached (Slurm ≤ 3 s); the queue within
// 1.25× the ideal; the runner's peak RSS with the 4 GiB input under 256 MiB. queue_cpu_floor_ratio is the least ratio the machine's CPUs allow at the
// measured CPU per container (all processes: server, PostgreSQL, dispatcher, runners).
// BENCH_CPU_PROF=<dir> keeps CPU profiles of the server and dispatchers. BENCH_LOG=<file>
// (with BENCH_LOG_LEVEL=info) keeps the server's request lines, to see where a container's
// requests go.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase, runMain } from './lib/database.mjs';
import { backendPids, processCpuMs, profiling } from './lib/processes.mjs';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');
const { SvcClient } = require(join(root, 'packages/client/dist/index.js'));
const { writeTar, CollectionStore } = require(join(root, 'apps/runner/dist/index.js'));
const { newDir, serializeManifestTree } = require(join(root, 'packages/blocks/dist/index.js'));

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const QUEUE = Number(process.env.BENCH_QUEUE ?? 1000);
const SLOTS = Number(process.env.BENCH_SLOTS ?? 32);
const ROOT_TOKEN = 'executionBenchRootToken0000000000000000';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

function archive() {
  const layer = writeTar([
    { path: 'bin', type: 'dir' },
    { path: 'bin/busybox', data: readFileSync('/bin/busybox'), mode: 0o755 },
    { path: 'bin/sh', type: 'symlink', linkname: 'busybox' },
    { path: 'bin/true', type: 'symlink', linkname: 'busybox' },
    { path: 'bin/sleep', type: 'symlink', linkname: 'busybox' },
    { path: 'bin/md5sum', type: 'symlink', linkname: 'busybox' },
  ]);
  const id = createHash('sha256').update(layer).digest('hex');
  const config = JSON.stringify({ config: { Env: ['PATH=/bin'] } });
  return writeTar([
    { path: `${id}/layer.tar`, data: layer },
    { path: 'config.json', data: config },
    {
      path: 'manifest.json',
      data: JSON.stringify([{ Config: 'config.json', Layers: [`${id}/layer.tar`] }]),
    },
  ]);
}

/** Peak RSS of runner processes, sampled while the benchmark runs. */
const runnerPeaks = new Map();
function sampleRunners() {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/runner\/dist\/(main|worker)\.js/.test(cmd)) continue;
      const hwm = Number(
        /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0,
      );
      runnerPeaks.set(pid, Math.max(runnerPeaks.get(pid) ?? 0, hwm * 1024));
    } catch {
      /* gone */
    }
  }
}

/**
 * CPU used during the queue phase by the server, its PostgreSQL sessions, the dispatcher and
 * the runners (with the sandboxes and commands they reaped): sampled while it runs, since
 * runners and sessions may end before it does.
 */
function cpuMeter(serverPid, pgPids) {
  const peak = new Map(); // key → [group, first, last]
  const sample = () => {
    const groups = [
      ['server', [serverPid]],
      ['postgres', pgPids()],
    ];
    const runners = [];
    const dispatchers = [];
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (/runner\/dist\/(main|worker)\.js/.test(cmd)) runners.push(pid);
        else if (/dispatcher\/dist\/main\.js/.test(cmd)) dispatchers.push(pid);
      } catch {
        /* gone */
      }
    }
    groups.push(['runners', runners], ['dispatcher', dispatchers]);
    for (const [group, pids] of groups) {
      for (const pid of pids) {
        // a dispatcher's reaped children are its runners, counted as such
        const t = (processCpuMs(pid, { children: group !== 'dispatcher' }) ?? 0) / 1000;
        if (t === 0) continue;
        const p = peak.get(`${group}:${pid}`);
        if (p) p[2] = Math.max(p[2], t);
        // a process first seen now started during the phase (but for the server and sessions)
        else
          peak.set(`${group}:${pid}`, [
            group,
            group === 'runners' || group === 'dispatcher' ? 0 : t,
            t,
          ]);
      }
    }
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    sample,
    /** CPU milliseconds per container by group. */
    stop(containers) {
      sample();
      clearInterval(timer);
      const out = {};
      for (const [group, first, last] of peak.values())
        out[group] = (out[group] ?? 0) + (last - first);
      return Object.fromEntries(
        Object.entries(out).map(([g, s]) => [g, Math.round((s * 1000) / containers)]),
      );
    },
  };
}

/** A committed request for `command` in `image`: one VCPU, 64 MiB, a tmp output directory. */
const commit = (client, image, command, more = {}) =>
  client.request('POST', '/svc/v1/container_requests', {
    json: {
      container_request: {
        ...more,
        command,
        container_image: image,
        cwd: '/',
        output_path: '/out',
        mounts: { '/out': { kind: 'tmp', capacity: 1000000 } },
        runtime_constraints: { ram: 64 * 1024 * 1024, vcpus: 1 },
        priority: 500,
        state: 'Committed',
      },
    },
  });

/** QUEUE one-second containers committed at once: seconds until all are Final, and the ratio. */
async function queueRun(client, image, startDispatcher, meter) {
  if (QUEUE <= 0) return {};
  const tag = `bench-${Date.now()}`;
  const slots = SLOTS;
  for (let i = 0; i < QUEUE; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, QUEUE - i) }, (_, k) =>
        // the tag as $0 keeps each unique (busybox sleep takes no extra argument)
        commit(client, image, ['sh', '-c', 'sleep 1', `${tag}-${i + k}`], {
          name: `${tag}-${i + k}`,
        }),
      ),
    );
  }
  const t0 = performance.now();
  const cpu = meter();
  const dispatcher = startDispatcher();
  for (;;) {
    const res = await client.request('GET', '/svc/v1/container_requests', {
      query: {
        filters: [
          ['name', 'like', `${tag}-%`],
          ['state', '=', 'Final'],
        ],
        limit: 0,
        count: 'exact',
      },
    });
    if (res.body.items_available >= QUEUE) break;
    await sleep(500);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = cpu.stop(QUEUE);
  await dispatcher.stop();
  const ideal = QUEUE / slots;
  // What the CPUs allow: at the CPU one container costs, the machine finishes at most
  // cpus × 1000 / cost containers a second; `slots` one-second containers need `slots` a second.
  const perContainer = Object.values(cpuMs).reduce((a, b) => a + b, 0);
  const allowed = (cpus().length * 1000) / perContainer;
  return {
    queue_containers: QUEUE,
    queue_slots: slots,
    queue_seconds: Math.round(seconds * 10) / 10,
    queue_ideal_seconds: ideal,
    queue_ratio: Math.round((seconds / ideal) * 100) / 100,
    queue_cpu_ms_per_container: cpuMs,
    queue_cpu_floor_ratio: Math.max(1, Math.round((slots / allowed) * 100) / 100),
    load_average: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

/** One `true` container after another: commit → Running and commit → Final, in ms. */
async function sequential(client, image, runs, onSample = () => undefined) {
  const running = [];
  const final = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const res = await commit(client, image, ['true', `${i}-${Date.now()}`]);
    if (res.status !== 200) throw new Error(res.text);
    let tRunning = null;
    for (;;) {
      const c = (await client.request('GET', `/svc/v1/containers/${res.body.container_uuid}`)).body;
      if (tRunning === null && c.state !== 'Queued' && c.state !== 'Locked')
        tRunning = performance.now();
      const cr = (await client.request('GET', `/svc/v1/container_requests/${res.body.uuid}`)).body;
      if (cr.state === 'Final') break;
      onSample();
      await sleep(20);
    }
    // the first run loads the image into the cache; it is not counted
    if (i > 0) {
      running.push(tRunning - t0);
      final.push(performance.now() - t0);
    }
  }
  return { running, final };
}

/**
 * Slurm (BENCH_SLURM_RUNS, default 5; 0 skips it): a single-node Slurm of its own (the test
 * harness's), a dispatcher with the Slurm backend, `true` containers one after another.
 */
async function slurmRun(client, image, startDispatcher) {
  const runs = Number(process.env.BENCH_SLURM_RUNS ?? 5);
  if (runs <= 0 || !existsSync('/usr/sbin/slurmctld')) return {};
  const ts = require(join(root, 'node_modules/typescript'));
  const source = readFileSync(join(root, 'tests/harness/slurm.ts'), 'utf8');
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const mod = { exports: {} };
  new Function('require', 'module', 'exports', js)(require, mod, mod.exports);
  const slurm = mod.exports.startSlurm();
  try {
    const dispatcher = startDispatcher({
      SVC_DISPATCH_BACKEND: 'slurm',
      SLURM_CONF: slurm.env.SLURM_CONF,
    });
    try {
      const { running, final } = await sequential(client, image, runs);
      return {
        slurm_runs: runs,
        slurm_commit_to_running_p50_ms: Math.round(pct(running, 0.5)),
        slurm_commit_to_final_p50_ms: Math.round(pct(final, 0.5)),
      };
    } finally {
      await dispatcher.stop();
    }
  } finally {
    slurm.stop();
  }
}

/**
 * A large input (BENCH_BIG_INPUT_MIB, default 4096; 0 skips it): one file of that many MiB of
 * distinct random bytes, mounted as a collection in a container (ram 256 MiB) that hashes it,
 * run by a dispatcher of its own (fresh runner processes). Target: the runner's peak RSS stays
 * under 256 MiB (execution.md §3.3: collection mounts stream).
 */
async function bigInput(client, image, startDispatcher, dir) {
  const mib = Number(process.env.BENCH_BIG_INPUT_MIB ?? 4096);
  if (mib <= 0) return {};
  const path = join(dir, 'big.bin');
  const out = createWriteStream(path);
  const md5 = createHash('md5');
  for (let i = 0; i < mib; i++) {
    const piece = randomBytes(1024 * 1024);
    md5.update(piece);
    if (!out.write(piece)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const store = new CollectionStore(client);
  const tree = newDir();
  tree.children.set('big.bin', await store.storeFile(path, mib * 1024 * 1024));
  rmSync(path);
  const input = (await store.create({ manifest_text: serializeManifestTree(tree) }))[
    'portable_data_hash'
  ];
  runnerPeaks.clear();
  const dispatcher = startDispatcher();
  const sampler = setInterval(sampleRunners, 100);
  const t0 = performance.now();
  try {
    const res = await client.request('POST', '/svc/v1/container_requests', {
      json: {
        container_request: {
          command: ['sh', '-c', 'md5sum /in/big.bin > /out/sum'],
          container_image: image,
          cwd: '/',
          output_path: '/out',
          mounts: {
            '/out': { kind: 'tmp', capacity: 1000000 },
            '/in': { kind: 'collection', portable_data_hash: input },
          },
          runtime_constraints: { ram: 256 * 1024 * 1024, vcpus: 1 },
          priority: 500,
          state: 'Committed',
        },
      },
    });
    if (res.status !== 200) throw new Error(res.text);
    let cr;
    do {
      await sleep(500);
      cr = (await client.request('GET', `/svc/v1/container_requests/${res.body.uuid}`)).body;
    } while (cr.state !== 'Final');
    const c = (await client.request('GET', `/svc/v1/containers/${cr.container_uuid}`)).body;
    if (c.state !== 'Complete' || c.exit_code !== 0) throw new Error(JSON.stringify(c));
    const seconds = (performance.now() - t0) / 1000;
    const sum = await client.request('GET', `/c=${cr.output_uuid}/sum`);
    if (!sum.text.startsWith(md5.digest('hex'))) throw new Error(`wrong sum: ${sum.text}`);
    const peak = Math.max(...runnerPeaks.values());
    return {
      big_input_mib: mib,
      big_input_commit_to_final_seconds: Math.round(seconds * 10) / 10,
      big_input_runner_peak_rss_mib: Math.round((peak / 1024 / 1024) * 10) / 10,
      big_input_runner_peak_target_mib: 256,
    };
  } finally {
    clearInterval(sampler);
    await dispatcher.stop();
  }
}

/** A launcher config: one cluster, the database at `dbUrl`, blocks, SLOTS one-VCPU slots. */
function writeConfig(data, port, dbUrl) {
  const file = join(data, 'svc.yml');
  const doc = {
    Gateway: { Listen: `127.0.0.1:${port}` },
    Clusters: {
      zbnch: {
        SystemRootToken: ROOT_TOKEN,
        Database: { URL: dbUrl },
        Login: { Test: { Enable: true } },
        Collections: { DefaultReplication: 1 },
        Volumes: {
          local: { Driver: 'Directory', DriverParameters: { Root: join(data, 'blocks') } },
        },
        Containers: {
          Dispatch: { Backend: 'none' },
          Local: { MaxVCPUs: SLOTS, MaxRAM: SLOTS * 128 * 1024 * 1024 },
        },
      },
    },
  };
  writeFileSync(file, JSON.stringify(doc)); // JSON is YAML
  return file;
}

/** `svc-dispatcher` for the cluster; `stop()` ends it (its runners finish first). */
function dispatcherProcess(url, token, stateDir, more = {}) {
  const child = spawn(
    process.execPath,
    [...profiling('dispatcher'), join(root, 'apps/dispatcher/dist/main.js')],
    {
      env: {
        PATH: process.env.PATH,
        SVC_API_HOST: url,
        SVC_API_TOKEN: token,
        SVC_DISPATCH_DIR: stateDir,
        SVC_DISPATCH_BACKEND: 'local',
        ...more,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((r) => child.once('exit', r));
  return {
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function main() {
  const data = mkdtempSync(join(tmpdir(), 'svc-bench-exec-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const embedded = process.env.BENCH_DB === 'embedded';
  const db = embedded ? null : await createBenchDatabase('svc_bench_exec_');
  const dbUrl = db?.url ?? `pglite:${join(data, 'db')}`;
  // the server's PostgreSQL sessions (their CPU counts too), looked up now and then
  let sessions = [];
  const refreshSessions = async () => {
    if (db) sessions = await backendPids([db.name]);
  };
  const server = spawn(
    process.execPath,
    [...profiling('server'), join(root, 'apps/launcher/dist/main.js')],
    {
      env: {
        ...process.env,
        SVC_CONFIG: writeConfig(data, port, dbUrl),
        SVC_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let dispatcher = null;
  const serverExited = new Promise((r) => server.once('exit', r));
  const cleanup = async () => {
    server.kill('SIGTERM');
    await Promise.all([serverExited, dispatcher?.stop()]);
    rmSync(data, { recursive: true, force: true });
  };
  try {
    let out = '';
    server.stdout.on('data', (b) => (out = (out + b).slice(-100000)));
    if (process.env.BENCH_LOG) server.stdout.pipe(createWriteStream(process.env.BENCH_LOG));
    while (!out.includes('svc is serving')) {
      if (server.exitCode !== null) throw new Error(`server exited: ${out}`);
      await sleep(200);
    }
    const url = `http://127.0.0.1:${port}`;
    const client = new SvcClient({ host: url, token: ROOT_TOKEN });
    const admin = await client.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { scopes: ['all'] } },
    });
    const adminToken = `v2/${admin.body.uuid}/${admin.body.api_token}`;
    const startDispatcher = (env = {}) =>
      dispatcherProcess(
        url,
        adminToken,
        join(data, `dispatch-${env.SLURM_CONF ? 'slurm' : 'local'}`),
        env,
      );
    dispatcher = startDispatcher();
    const store = new CollectionStore(client);
    const tree = newDir();
    tree.children.set('image.tar', await store.writeFile(archive()));
    const image = (await store.create({ manifest_text: serializeManifestTree(tree) }))[
      'portable_data_hash'
    ];
    const sampler = setInterval(sampleRunners, 20);
    const { running, final } = await sequential(client, image, RUNS);
    clearInterval(sampler);
    await dispatcher.stop();
    const meter = () => {
      const m = cpuMeter(server.pid, () => sessions);
      const timer = setInterval(() => void refreshSessions().then(m.sample), 1000);
      void refreshSessions().then(m.sample);
      return { stop: (n) => (clearInterval(timer), m.stop(n)) };
    };
    const queue = await queueRun(client, image, () => (dispatcher = startDispatcher()), meter);
    const slurm = await slurmRun(client, image, (env) => (dispatcher = startDispatcher(env)));
    const peak = Math.max(...runnerPeaks.values());
    const big = await bigInput(client, image, () => (dispatcher = startDispatcher()), data);
    const line = {
      bench: 'execution',
      database: embedded ? 'embedded' : 'postgresql',
      runs: RUNS,
      commit_to_running_p50_ms: Math.round(pct(running, 0.5)),
      commit_to_running_p90_ms: Math.round(pct(running, 0.9)),
      commit_to_final_p50_ms: Math.round(pct(final, 0.5)),
      commit_to_final_p90_ms: Math.round(pct(final, 0.9)),
      runner_peak_rss_mib: Math.round((peak / 1024 / 1024) * 10) / 10,
      ...queue,
      ...slurm,
      ...big,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } finally {
    await cleanup();
  }
}

runMain(main);
