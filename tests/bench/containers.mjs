// Large-dataset benchmark of container requests and containers ("container requests" issue).
//
//   node tests/bench/containers.mjs        (after `pnpm build`; `pnpm bench` runs it via all.mjs)
//   BENCH_SCALE=0.01 node tests/bench/containers.mjs      smoke run, seconds of generation
//
// A fresh database (svc_bench_containers_<random>, dropped at the end, also on failure and
// SIGINT) with the migrations applied, filled with set-based SQL: at scale 1, 1,000,000
// containers in a realistic mix of states with a request each, and the log and output
// collections of a fifth of the successful ones (lib/containers.mjs). Then the deployment (core
// and gateway, in this process), a user with an image, and containers prepared through the API:
// requests committed, and their containers run to Complete through the dispatch API. Measured
// through the gateway, sequentially, as that user: committing a request that reuses a Complete
// container (it ends Final at once, with its output and log collections), one that creates a
// new container, and one that reuses a Queued container; a GET of a container as the baseline.
// Then 100 concurrent commits of one new identical request, which must yield exactly one
// container. Prints the latency table with the targets, EXPLAIN (ANALYZE, BUFFERS) of the reuse
// lookup and of the priority recompute as the server ran them, and one JSON line.
//
// Environment: BENCH_SCALE, BENCH_REQUESTS, BENCH_ROUNDS, BENCH_WARMUP, BENCH_SCENARIO_SECONDS,
// BENCH_EXPLAIN=0, BENCH_KEEP_DB, BENCH_STRICT, DATABASE_URL (as in lists.mjs).
// Exit status: 1 when something broke (a request failed, a commit chose the wrong container, the
// concurrent commits made more than one container).
import {
  codeChanged,
  codeStamp,
  datasetBenchSettings,
  fmtInt,
  fmtMs,
  fmtSeconds,
  load1,
  makeLog,
  undici,
} from './lib/common.mjs';
import {
  generateContainers,
  requestBody,
  runToComplete,
  uniqueManifest,
} from './lib/containers.mjs';
import { connect, createBenchDatabase, runMain } from './lib/database.mjs';
import { Http, startBenchDeployment } from './lib/deployment.mjs';
import { Generator } from './lib/generate.mjs';
import { heading, jsonLine, out, passFail, printPlan, table } from './lib/report.mjs';
import { explainBoth, traced, untraced } from './lib/sql.mjs';
import { measure, roundsText } from './lib/timing.mjs';

const log = makeLog('containers');
const CLUSTER = 'bcont';
const { SCALE, REQUESTS, ROUNDS, WARMUP, EXPLAIN, BUDGET_MS, STRICT, scaled } =
  datasetBenchSettings();
const COUNT = scaled(1_000_000, 1_000);
const TARGETS = { reuseComplete: 15, create: 20 };
/** Prepared containers each reuse scenario rotates over. */
const PREPARED = 20;

async function generate(url, image) {
  const client = untraced(await connect(url));
  const gen = new Generator(client, CLUSTER);
  const t0 = performance.now();
  await gen.prepare();
  await gen.builtInRows();
  await generateContainers(gen, { count: COUNT, image });
  await gen.vacuumAnalyze(['containers', 'container_requests', 'collections']);
  return { client, timings: gen.timings, totalMs: performance.now() - t0 };
}

/** A user with a token and an image, made through the API. */
async function benchUser(http, root) {
  const user = await http.ok('POST', '/svc/v1/users', {
    token: root,
    json: { user: { email: `bench-${Date.now()}@example.com`, is_active: true } },
  });
  const token = await http.ok('POST', '/svc/v1/api_client_authorizations', {
    token: root,
    json: { api_client_authorization: { owner_uuid: user.body.uuid } },
  });
  const v2 = `v2/${token.body.uuid}/${token.body.api_token}`;
  // Made by root for the user: its locator names no stored block, so only an admin may save it.
  const image = await http.ok('POST', '/svc/v1/collections', {
    token: root,
    json: {
      collection: {
        name: 'image',
        owner_uuid: user.body.uuid,
        manifest_text: uniqueManifest('image.tar'),
      },
    },
  });
  return { uuid: user.body.uuid, token: v2, image: image.body.portable_data_hash };
}

async function commit(http, token, body) {
  return http.ok('POST', '/svc/v1/container_requests', {
    token,
    json: { container_request: body },
  });
}

/** Containers to reuse: PREPARED Complete ones (run through the dispatch API) and Queued ones. */
async function prepareTargets(http, root, user) {
  const complete = [];
  const queued = [];
  for (let i = 0; i < PREPARED; i++) {
    const done = requestBody(user.image, ['bench-complete', `${i}`]);
    const k = (await commit(http, user.token, done)).body.container_uuid;
    await runToComplete(http, root, k);
    complete.push({ body: done, container: k });
    const waiting = requestBody(user.image, ['bench-queued', `${i}`]);
    queued.push({
      body: waiting,
      container: (await commit(http, user.token, waiting)).body.container_uuid,
    });
  }
  return { complete, queued };
}

function scenarios(http, user, targets) {
  let fresh = 0;
  const pick = (list, i) => list[((i % list.length) + list.length) % list.length];
  const check = (what, cond, body) => {
    if (!cond) throw new Error(`${what}: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
  };
  return [
    {
      id: 'get-container',
      label: 'GET /containers/<uuid> (baseline)',
      run: async (i) =>
        (
          await http.ok('GET', `/svc/v1/containers/${pick(targets.complete, i).container}`, {
            token: user.token,
          })
        ).ms,
    },
    {
      id: 'commit-reuse-complete',
      label: 'commit reusing a Complete container (Final at once, output and log collections made)',
      target: TARGETS.reuseComplete,
      run: async (i) => {
        const t = pick(targets.complete, i);
        const r = await commit(http, user.token, t.body);
        check('reuse', r.body.state === 'Final' && r.body.container_uuid === t.container, r.body);
        return r.ms;
      },
    },
    {
      id: 'commit-new',
      label: 'commit creating a new Queued container',
      target: TARGETS.create,
      run: async () => {
        const r = await commit(
          http,
          user.token,
          requestBody(user.image, ['bench-new', `${Date.now()}-${++fresh}`]),
        );
        check('new', r.body.state === 'Committed' && r.body.container_count === 1, r.body);
        return r.ms;
      },
    },
    {
      id: 'commit-reuse-queued',
      label: 'commit reusing a Queued container (priority recomputed)',
      run: async (i) => {
        const t = pick(targets.queued, i);
        const r = await commit(http, user.token, t.body);
        check('queued', r.body.container_uuid === t.container, r.body);
        return r.ms;
      },
    },
  ];
}

/** 100 identical commits at once, over 100 connections: exactly one new container. */
async function concurrentCommits(url, user, client) {
  const agent = new undici.Agent({ connections: 100 });
  const body = requestBody(user.image, ['bench-concurrent', `${Date.now()}`]);
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 100 }, async () => {
      const res = await undici.request(`${url}/svc/v1/container_requests`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ container_request: body }),
      });
      return { status: res.statusCode, body: await res.body.json() };
    }),
  );
  const ms = performance.now() - t0;
  await agent.close();
  const failed = answers.filter((a) => a.status !== 200);
  const containers = new Set(answers.map((a) => a.body.container_uuid));
  const { rows } = await client.query(
    `SELECT count(*)::int AS n FROM containers WHERE command = $1::jsonb`,
    [JSON.stringify(body.command)],
  );
  return { ms, failed: failed.length, distinct: containers.size, stored: rows[0].n };
}

/** The statements of one commit of each kind, as the server ran them, explained. */
async function explainCommits(http, user, targets, client) {
  const wanted = ['reuse_candidate', 'reuse_recheck', 'priority_of_container', 'collection_by_pdh'];
  const plans = [];
  for (const [what, body] of [
    ['reuse of a Complete container', targets.complete[0].body],
    ['new container', requestBody(user.image, ['bench-explain', `${Date.now()}`])],
  ]) {
    const { statements } = await traced(() => commit(http, user.token, body));
    const seen = new Set();
    for (const s of statements) {
      if (!wanted.includes(s.name) || seen.has(s.name)) continue;
      seen.add(s.name);
      plans.push({
        title: `${what}: ${s.name} (core's time ${fmtMs(s.ms)})`,
        e: await explainBoth(client, s),
      });
    }
  }
  return plans;
}

async function main() {
  const t0 = performance.now();
  const stampStart = codeStamp();
  log(`scale ${SCALE}: ${fmtInt(COUNT)} containers; load ${load1()}`);
  const db = await createBenchDatabase('svc_bench_containers_');
  // The generated containers use an image nobody has: they never match the measured requests.
  const g = await generate(db.url, 'd41d8cd98f00b204e9800998ecf8427e+0');
  log(`generation done in ${fmtSeconds(g.totalMs)}`);
  const deployment = await startBenchDeployment({ clusterId: CLUSTER, databaseUrl: db.url });
  const http = new Http(deployment.url);
  const root = deployment.rootToken;
  const user = await benchUser(http, root);
  const targets = await prepareTargets(http, root, user);
  log(`prepared ${PREPARED} Complete and ${PREPARED} Queued containers through the API`);

  const list = scenarios(http, user, targets);
  const perRound = Math.max(1, Math.round(REQUESTS / ROUNDS));
  const { results, load } = await measure(list, {
    warmup: WARMUP,
    rounds: ROUNDS,
    perRound,
    log,
    budgetMs: BUDGET_MS,
  });
  const concurrent = await concurrentCommits(deployment.url, user, g.client);
  const plans = EXPLAIN ? await explainCommits(http, user, targets, g.client) : [];
  const { rows: counts } = await g.client.query(
    `SELECT (SELECT count(*) FROM containers)::int AS containers, (SELECT count(*) FROM container_requests)::int AS requests, (SELECT count(*) FROM collections)::int AS collections`,
  );
  const stampEnd = codeStamp();

  heading('containers benchmark: data');
  out(`scale ${SCALE}; generation ${fmtSeconds(g.totalMs)}`);
  out(
    table([['step', 'time'], ...Object.entries(g.timings).map(([k, ms]) => [k, fmtSeconds(ms)])]),
  );
  out(
    `rows at the end: ${fmtInt(counts[0].containers)} containers, ${fmtInt(counts[0].requests)} requests, ${fmtInt(counts[0].collections)} collections`,
  );
  if (plans.length) {
    heading('containers benchmark: EXPLAIN (ANALYZE, BUFFERS) of what the server ran');
    for (const p of plans) {
      printPlan(`${p.title}: custom plan`, p.e);
      if (p.e.generic) printPlan(`${p.title}: generic plan`, p.e.generic);
    }
  }
  heading('containers benchmark: latency through the gateway (sequential, a regular user)');
  const base = results['get-container'].p50;
  const summary = {};
  const rows = [
    ['scenario', 'p50 ms', 'p90 ms', 'p99 ms', 'n', 'round p50s', 'x base', 'target', 'result'],
  ];
  for (const s of list) {
    const r = results[s.id];
    const pass = passFail(r.p50, s.target);
    summary[s.id] = {
      p50: r.p50,
      p90: r.p90,
      p99: r.p99,
      n: r.n,
      target: s.target ?? null,
      pass: s.target ? pass === 'PASS' : null,
    };
    rows.push([
      s.id,
      fmtMs(r.p50),
      fmtMs(r.p90),
      fmtMs(r.p99),
      r.n,
      roundsText(r),
      (r.p50 / base).toFixed(2),
      s.target ? `<= ${s.target} ms` : '',
      pass,
    ]);
  }
  out(table(rows));
  out();
  for (const s of list) out(`  ${s.id.padEnd(22)} ${s.label}`);
  const oneContainer =
    concurrent.failed === 0 && concurrent.distinct === 1 && concurrent.stored === 1;
  out();
  out(
    `100 concurrent identical commits: ${concurrent.failed} failed, ${concurrent.distinct} distinct container(s) answered, ${concurrent.stored} stored, in ${fmtMs(concurrent.ms)} — ${oneContainer ? 'PASS (exactly one container)' : 'FAIL'}`,
  );
  out(
    `Load: ${load.cpus} CPUs; 1-min load average ${load.loadavgStart[0]} at start, ${load.loadavgEnd[0]} at end`,
  );
  const failed = Object.entries(summary)
    .filter(([, s]) => s.pass === false)
    .map(([id]) => id);
  out(failed.length ? `Targets missed: ${failed.join(', ')}` : 'All targets met.');
  out(
    `Total time ${fmtSeconds(performance.now() - t0)}. Code measured: commit ${stampStart.head}, build of ${stampStart.newestDist}.`,
  );
  if (codeChanged(stampStart, stampEnd)) out('WARNING: the build changed during the run.');
  jsonLine({
    bench: 'containers',
    scale: SCALE,
    code: { ...stampStart, changedDuringRun: codeChanged(stampStart, stampEnd) },
    rows: counts[0],
    generationMs: Math.round(g.totalMs),
    baselineP50: base,
    scenarios: summary,
    concurrent: { ...concurrent, pass: oneContainer },
    load,
    targetsMissed: failed,
  });
  if (!oneContainer) return 1;
  return STRICT && failed.length > 0 ? 2 : 0;
}

runMain(main);
