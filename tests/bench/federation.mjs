// Federation benchmark (run through `pnpm bench`, which builds first).
//
// Three clusters behind one gateway (federation.md §1, shape (a)), each on a fresh database.
// By default each core and the gateway run in a process of their own, as deployed
// (BENCH_SHAPE=processes); BENCH_SHAPE=in-process runs them all in this process through the
// launcher, as the embedded default does (one event loop: the clusters' shares of a federated
// list are then rendered one after the other, so the list target is not expected to hold). A regular user of the home cluster owns 100 collections
// spread over the three clusters. Sequential requests over one keep-alive connection measure:
//   - a federated list of the 100 uuids (count=none) against, for each cluster, the list of its
//     share of them on that cluster alone (cluster_id): target p50 ≤ 1.3 × the slowest share;
//   - the physical floor of that list on this machine: the three share lists issued at the
//     same time by the client (one connection each, no federation layer), timed until the last
//     answer (the slowest of the three): the clusters' work sharing the machine's CPUs, which
//     the federated list cannot beat. federated list / floor is what the federation layer adds;
//     floor / slowest share is what sharing the CPUs costs;
//   - a GET by uuid of a collection on a sibling cluster against one on the home cluster:
//     target p50 within 1 ms of the local GET.
//
// Environment: BENCH_ROUNDS (default 3), BENCH_PER_ROUND (default 60), BENCH_CPU_CALLS (calls
// per scenario for the CPU figures, default 300: /proc counts 10 ms ticks), BENCH_SHAPE,
// DATABASE_URL (server).
import { dist, makeLog, numberEnv, pino, randomAlnum } from './lib/common.mjs';
import { createBenchDatabase, runMain } from './lib/database.mjs';
import { Http } from './lib/deployment.mjs';
import { backendPids, cpuPerCall, startProcessDeployment } from './lib/processes.mjs';
import { jsonLine, out, table } from './lib/report.mjs';
import { measure, roundsText } from './lib/timing.mjs';

const log = makeLog('bench:federation');
const ROUNDS = numberEnv('BENCH_ROUNDS', 3, { integer: true });
const PER_ROUND = numberEnv('BENCH_PER_ROUND', 60, { integer: true });
const CPU_CALLS = numberEnv('BENCH_CPU_CALLS', 300, { integer: true });
const IDS = ['fedh1', 'fedb2', 'fedc3'];
const TARGETS = { listVsSlowestShare: 1.3, crossGetExtraMs: 1 };
const SHAPE = process.env.BENCH_SHAPE || 'processes';
if (!['processes', 'in-process'].includes(SHAPE))
  throw new Error(`BENCH_SHAPE must be processes or in-process, got "${SHAPE}"`);

const rootTokenOf = (tokens) => (id) => `v2/${id}-gj3su-000000000000000/${tokens[id]}`;

async function startInProcess() {
  const { validateConfig } = dist('packages/config/dist/index.js');
  const { startDeployment } = dist('apps/launcher/dist/index.js');
  const tokens = Object.fromEntries(IDS.map((id) => [id, randomAlnum(40)]));
  const databases = await Promise.all(IDS.map(() => createBenchDatabase('svc_bench_fed_')));
  const config = validateConfig({
    Gateway: { Listen: '127.0.0.1:0', HomeCluster: IDS[0] },
    Clusters: Object.fromEntries(
      IDS.map((id, i) => [
        id,
        {
          SystemRootToken: tokens[id],
          Database: { URL: databases[i].url },
          Core: { Listen: '127.0.0.1:0' },
          Login: { Test: { Enable: true } },
        },
      ]),
    ),
  });
  const logger = pino({ level: process.env.SVC_BENCH_LOG ?? 'silent' });
  const running = await startDeployment(config, { core: logger, gateway: logger });
  return { url: running.gateway.url, rootToken: rootTokenOf(tokens), close: () => running.close() };
}

async function startProcesses() {
  const tokens = Object.fromEntries(IDS.map((id) => [id, randomAlnum(40)]));
  const databases = await Promise.all(IDS.map(() => createBenchDatabase('svc_bench_fed_')));
  const running = await startProcessDeployment(
    Object.fromEntries(
      IDS.map((id, i) => [id, { rootToken: tokens[id], databaseUrl: databases[i].url }]),
    ),
  );
  const names = databases.map((d) => d.name);
  const pids = async () => ({ ...running.pids, postgres: await backendPids(names) });
  return { url: running.url, rootToken: rootTokenOf(tokens), close: running.close, pids };
}

async function setUp(d) {
  const root = new Http(d.url);
  const rootAuth = d.rootToken(IDS[0]);
  const post = async (path, body, token, query) => {
    const res = await root.request('POST', path, { token, json: body, query });
    if (res.status !== 200)
      throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const user = await post(
    '/svc/v1/users',
    { user: { email: 'fed@bench.example', is_active: true } },
    rootAuth,
  );
  const t = await post(
    '/svc/v1/api_client_authorizations',
    { api_client_authorization: { owner_uuid: user.uuid } },
    rootAuth,
  );
  const token = `v2/${t.uuid}/${t.api_token}`;
  const byCluster = Object.fromEntries(IDS.map((id) => [id, []]));
  for (let i = 0; i < 100; i++) {
    const cluster = IDS[i % IDS.length];
    const made = await post('/svc/v1/collections', { collection: { name: `fed ${i}` } }, token, {
      cluster_id: cluster,
    });
    byCluster[cluster].push(made.uuid);
  }
  // One connection per cluster for the concurrent shares (one connection carries one request
  // at a time).
  const parallel = IDS.map(() => new Http(d.url));
  return { token, byCluster, http: new Http(d.url), parallel };
}

async function main() {
  const d = SHAPE === 'processes' ? await startProcesses() : await startInProcess();
  try {
    const { token, byCluster, http, parallel } = await setUp(d);
    const all = Object.values(byCluster).flat();
    const listOn = async (conn, uuids, clusterId) => {
      const res = await conn.request('GET', '/svc/v1/collections', {
        token,
        query: {
          filters: [['uuid', 'in', uuids]],
          count: 'none',
          ...(clusterId ? { cluster_id: clusterId, limit: 1000 } : {}),
        },
      });
      if (res.status !== 200 || res.body.items.length !== uuids.length) {
        throw new Error(`list: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      }
      return res.ms;
    };
    const list = (uuids, clusterId) => () => listOn(http, uuids, clusterId);
    // The three shares at once: the time until the last one is answered.
    const sharesAtOnce = async () => {
      const t0 = performance.now();
      await Promise.all(IDS.map((id, i) => listOn(parallel[i], byCluster[id], id)));
      return performance.now() - t0;
    };
    const get = (uuid) => async () => {
      const res = await http.request('GET', `/svc/v1/collections/${uuid}`, { token });
      if (res.status !== 200) throw new Error(`get ${uuid}: ${res.status}`);
      return res.ms;
    };
    const scenarios = [
      { id: 'federated-list-100', run: list(all) },
      ...IDS.map((id) => ({ id: `share-${id}`, run: list(byCluster[id], id) })),
      { id: 'shares-concurrent', run: sharesAtOnce },
      { id: 'get-local', run: get(byCluster[IDS[0]][0]) },
      { id: 'get-sibling', run: get(byCluster[IDS[1]][0]) },
    ];
    log(`measuring: ${ROUNDS} rounds × ${PER_ROUND} requests per scenario`);
    const { results, load } = await measure(scenarios, {
      warmup: 10,
      rounds: ROUNDS,
      perRound: PER_ROUND,
      log,
    });
    // What a request costs the machine in CPU (every process of the deployment and its
    // PostgreSQL backends): the shares of a federated list run in parallel only as far as
    // there are CPUs, so cpu / CPUs bounds its wall time from below.
    const cpu = {};
    if (d.pids) {
      for (const s of scenarios.filter((x) => !x.id.startsWith('get-'))) {
        cpu[s.id] = await cpuPerCall(d.pids, s.run, CPU_CALLS);
      }
    }
    const slowestShare = Math.max(...IDS.map((id) => results[`share-${id}`].p50));
    const fed = results['federated-list-100'].p50;
    const floor = results['shares-concurrent'].p50;
    const listRatio = fed / slowestShare;
    const floorRatio = fed / floor;
    const floorVsShare = floor / slowestShare;
    // CPU of the federated list against the three shares' (the same items, the same cores).
    const sharesCpu = cpu['shares-concurrent'] ?? null;
    const crossExtra = results['get-sibling'].p50 - results['get-local'].p50;
    out('');
    out(
      `svc federation bench: three clusters behind one gateway (${SHAPE}), sequential requests (ms)`,
    );
    out(
      table([
        ['scenario', 'p50', 'p99', 'rounds p50', 'CPU ms: all', 'gateway', 'cores', 'postgres'],
        ...scenarios.map((s) => [
          s.id,
          results[s.id].p50.toFixed(2),
          results[s.id].p99.toFixed(2),
          roundsText(results[s.id]),
          ...['all', 'gateway', 'cores', 'postgres'].map((k) => cpu[s.id]?.[k]?.toFixed(2) ?? ''),
        ]),
      ]),
    );
    out('');
    const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
    out(
      `federated list / slowest share   ${listRatio.toFixed(2)}   target <= ${TARGETS.listVsSlowestShare}   ${verdict(listRatio <= TARGETS.listVsSlowestShare)}`,
    );
    out(`federated list / concurrent shares (the federation layer)   ${floorRatio.toFixed(2)}`);
    out(
      `concurrent shares / slowest share (three clusters on ${load.cpus} CPUs)   ${floorVsShare.toFixed(2)}`,
    );
    let cpuBound = null;
    if (sharesCpu) {
      const f = cpu['federated-list-100'];
      const split = (c) =>
        `${c.all.toFixed(2)} (gateway ${c.gateway.toFixed(2)}, cores ${c.cores.toFixed(2)}, postgres ${c.postgres.toFixed(2)})`;
      out(`CPU ms, federated list            ${split(f)}`);
      out(`CPU ms, the three shares          ${split(sharesCpu)}`);
      // A share cannot take less than its own CPU time, nor the federated list less than its
      // CPU time spread over every CPU: the best ratio this machine allows.
      const shareCpu = Math.max(...IDS.map((id) => cpu[`share-${id}`].all));
      cpuBound = f.all / load.cpus / shareCpu;
      out(
        `CPU bound: federated list CPU / ${load.cpus} CPUs / costliest share's CPU   ${cpuBound.toFixed(2)}`,
      );
    }
    out(
      `sibling GET − local GET (ms)     ${crossExtra.toFixed(2)}   target <= ${TARGETS.crossGetExtraMs}     ${verdict(crossExtra <= TARGETS.crossGetExtraMs)}`,
    );
    jsonLine({
      bench: 'svc-federation',
      shape: SHAPE,
      results,
      cpuMsPerRequest: cpu,
      load,
      ratios: { listRatio, floorRatio, floorVsShare, cpuBound, crossExtra },
      targets: TARGETS,
    });
  } finally {
    await d.close();
  }
}

await runMain(main);
