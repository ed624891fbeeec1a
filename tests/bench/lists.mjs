// Large-dataset benchmark of the list filter language ("filter language" issue).
//
//   node tests/bench/lists.mjs             (after `pnpm build`; `pnpm bench` runs it via all.mjs)
//   BENCH_SCALE=0.01 node tests/bench/lists.mjs      smoke run, a few seconds of generation
//
// A fresh database (svc_bench_lists_<random>, dropped at the end, also on failure and SIGINT)
// with the migrations applied, filled with set-based SQL: at scale 1, 2,000 users, 200,000
// groups (projects in trees, roles, filters; 0.5 % of projects trashed) and 1,000,000
// collections (20 % in home projects, 10 % in 50 big projects, 1 % trashed) with varied
// properties and vocabulary text; group_ancestors and materialized_permissions consistent
// (recomputeAllPermissions). Then the deployment (core + gateway, in this process) and
// sequential GET /svc/v1/collections requests as the root token (admin: the only scope
// conditions are trash visibility), each with the default count=exact and with count=none.
// Prints the generation times, the latency table with the targets, the EXPLAIN (ANALYZE,
// BUFFERS) plan of every query the server ran (traced in-process and checked to be identical
// to parseListParams + compileList with the collections' access policy), and one JSON line.
//
// Environment:
//   BENCH_SCALE       data scale (default 1 = 1,000,000 collections, 200,000 groups)
//   BENCH_REQUESTS    measured requests per scenario (default 120, split over the rounds)
//   BENCH_ROUNDS      rounds over all scenarios (default 3): per-round medians show the noise
//   BENCH_WARMUP      warm-up requests per scenario (default 10)
//   BENCH_SCENARIO_SECONDS  time budget of one scenario over all rounds (default 60): a slow
//                     one stops early, with at least 5 samples per round (n is reported)
//   BENCH_EXPLAIN=0   skip the EXPLAIN section
//   BENCH_RECOMPUTE_TIMEOUT  seconds allowed to the timed recomputeAllPermissions as shipped
//                     (default 600; the table is filled beforehand with enable_nestloop=off)
//   BENCH_KEEP_DB=1   keep the database (for experiments); its URL is printed
//   BENCH_DATABASE=<name>  measure a kept database again (no generation, not dropped), e.g. after
//                     changing a setting or an index on it
//   BENCH_AUTO_EXPLAIN_MS=<ms>  log the plans of the server's statements slower than that (auto_explain,
//                     PostgreSQL server log)
//   BENCH_STRICT=1    exit 2 when a target is missed (default: informational, exit 0)
//   DATABASE_URL      the PostgreSQL server (only its server part is used)
// Exit status: 1 when something broke (a request failed, an answer was wrong).
import {
  codeChanged,
  codeStamp,
  datasetBenchSettings,
  dist,
  fmtInt,
  fmtMs,
  fmtSeconds,
  load1,
  makeLog,
} from './lib/common.mjs';
import { connect, createBenchDatabase, existingDatabase, runMain } from './lib/database.mjs';
import { Http, startBenchDeployment } from './lib/deployment.mjs';
import { DATA_TABLES, Generator, fillPermissions, tableSizes, WORDS } from './lib/generate.mjs';
import { compileListRequest, explainListRequest } from './lib/lists.mjs';
import {
  heading,
  jsonLine,
  out,
  passFail,
  permissionsLine,
  printPlan,
  recomputeJson,
  table,
} from './lib/report.mjs';
import { preparedPlanCounts, untraced } from './lib/sql.mjs';
import { measure, roundsText } from './lib/timing.mjs';

const log = makeLog('lists');
const CLUSTER = 'blist';

const {
  SCALE,
  REQUESTS,
  ROUNDS,
  WARMUP,
  EXPLAIN,
  BUDGET_MS,
  RECOMPUTE_TIMEOUT_MS,
  STRICT,
  scaled,
} = datasetBenchSettings();
const SIZES = {
  users: scaled(2_000, 20),
  groups: scaled(200_000, 100),
  collections: scaled(1_000_000, 1_000),
};

const TARGETS = { indexed: 15, properties: 15, search: 80, pageNone: 10 };

async function generate(url) {
  const client = untraced(await connect(url));
  const gen = new Generator(client, CLUSTER);
  const t0 = performance.now();
  await gen.prepare();
  await gen.builtInRows();
  await gen.users({ count: SIZES.users, admins: 1 });
  const roles = Math.round(SIZES.groups * 0.01);
  const filters = Math.round(SIZES.groups * 0.01);
  const projects = SIZES.groups - roles - filters;
  await gen.groups({ projects, topLevel: Math.round(projects * 0.2), roles, filters });
  await gen.collections({
    count: SIZES.collections,
    homeShare: 0.2,
    hot: { projects: 50, share: 0.1 },
  });
  await gen.groupAncestors();
  await gen.vacuumAnalyze(DATA_TABLES);
  const recompute = await fillPermissions(gen, url, CLUSTER, RECOMPUTE_TIMEOUT_MS);
  const totalMs = performance.now() - t0;
  const sizes = await tableSizes(client);
  return { client, timings: gen.timings, totalMs, recompute, sizes };
}

/** A reused database: sizes only. */
async function describe(url) {
  const client = untraced(await connect(url));
  return { client, timings: {}, totalMs: null, recompute: null, sizes: await tableSizes(client) };
}

/** Values the filters use, picked from the data (a few of each, rotated over the requests). */
async function pickValues(client) {
  const one = async (text) => (await client.query(text)).rows;
  const visible = `trash_at IS NULL AND NOT EXISTS (SELECT 1 FROM hidden_groups tg WHERE tg.group_uuid = c.owner_uuid AND tg.trash_at <= now())`;
  const sample = await one(`
    SELECT uuid, name, portable_data_hash, properties->>'sample_id' AS sample_id
      FROM collections c TABLESAMPLE BERNOULLI (${Math.min(100, (50_000 / SIZES.collections) * 100)}) REPEATABLE (7)
     WHERE ${visible} AND properties ? 'sample_id' ORDER BY md5(uuid) LIMIT 20`);
  const [bigOwner] = await one(`
    SELECT owner_uuid, count(*)::int AS n FROM collections
     WHERE substr(owner_uuid, 7, 5) = 'j7d0g' GROUP BY owner_uuid ORDER BY count(*) DESC LIMIT 1`);
  const [typicalOwner] = await one(`
    WITH per AS (SELECT owner_uuid, count(*) AS n FROM collections
                  WHERE substr(owner_uuid, 7, 5) = 'j7d0g' GROUP BY owner_uuid)
    SELECT owner_uuid, n::int FROM per
     WHERE n >= (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n) FROM per)
     ORDER BY n, owner_uuid LIMIT 1`);
  return {
    uuids: sample.map((r) => r.uuid),
    names: sample.map((r) => r.name),
    pdhs: sample.map((r) => r.portable_data_hash),
    sampleIds: sample.map((r) => r.sample_id),
    bigOwner,
    typicalOwner,
    lab: 'lab-17',
    // A frequent vocabulary word and a less frequent one (power-law draws: rank 3 vs one of the
    // last ranks); the matches are counted and printed with the results.
    commonWord: WORDS[2],
    rareWord: WORDS[WORDS.length - 12],
  };
}

function scenarios(v) {
  const f = (filters) => JSON.stringify(filters);
  const rot = (list) => (i) => list[((i % list.length) + list.length) % list.length];
  return [
    {
      id: 'get-root',
      label: 'GET /collections/<uuid> (baseline: one row by primary key)',
      kind: 'get',
      path: (i) => `/svc/v1/collections/${rot(v.uuids)(i)}`,
    },
    {
      id: 'eq-owner-big',
      label: `owner_uuid = <big project> (${fmtInt(v.bigOwner.n)} collections)`,
      target: TARGETS.indexed,
      params: () => ({ filters: f([['owner_uuid', '=', v.bigOwner.owner_uuid]]) }),
    },
    {
      id: 'eq-owner-typical',
      label: `owner_uuid = <typical project> (${fmtInt(v.typicalOwner.n)} collections)`,
      target: TARGETS.indexed,
      params: () => ({ filters: f([['owner_uuid', '=', v.typicalOwner.owner_uuid]]) }),
    },
    {
      id: 'eq-pdh',
      label: 'portable_data_hash = <pdh>',
      target: TARGETS.indexed,
      params: (i) => ({ filters: f([['portable_data_hash', '=', rot(v.pdhs)(i)]]) }),
    },
    {
      id: 'eq-name',
      label: 'name = <name>',
      target: TARGETS.indexed,
      params: (i) => ({ filters: f([['name', '=', rot(v.names)(i)]]) }),
    },
    {
      id: 'prop-sample',
      label: 'properties.sample_id = <id> (selective)',
      target: TARGETS.properties,
      params: (i) => ({ filters: f([['properties.sample_id', '=', rot(v.sampleIds)(i)]]) }),
    },
    {
      id: 'prop-lab',
      label: `properties.lab = '${v.lab}' (~1.5 %)`,
      target: TARGETS.properties,
      params: () => ({ filters: f([['properties.lab', '=', v.lab]]) }),
    },
    {
      id: 'any-common',
      label: `any ilike '%${v.commonWord}%' (frequent vocabulary word)`,
      target: TARGETS.search,
      params: () => ({ filters: f([['any', 'ilike', `%${v.commonWord}%`]]) }),
    },
    {
      id: 'any-rare',
      label: `any ilike '%${v.rareWord}%' (less frequent vocabulary word)`,
      target: TARGETS.search,
      params: () => ({ filters: f([['any', 'ilike', `%${v.rareWord}%`]]) }),
    },
    {
      id: 'page-first',
      label: 'first page, no filter (default order)',
      target: TARGETS.pageNone,
      targetOn: 'none',
      params: () => ({}),
    },
    {
      id: 'page-offset',
      label: 'page at offset 100,000 (default order)',
      params: () => ({ offset: String(Math.min(100_000, Math.floor(SIZES.collections / 2))) }),
    },
  ];
}

async function main() {
  const t0 = performance.now();
  const stampStart = codeStamp();
  log(
    `scale ${SCALE}: ${fmtInt(SIZES.users)} users, ${fmtInt(SIZES.groups)} groups, ${fmtInt(SIZES.collections)} collections; load ${load1()}`,
  );
  const db = process.env.BENCH_DATABASE
    ? existingDatabase(process.env.BENCH_DATABASE)
    : await createBenchDatabase('svc_bench_lists_');
  const g = db.reused ? await describe(db.url) : await generate(db.url);
  const client = g.client;
  if (g.totalMs !== null) log(`generation done in ${fmtSeconds(g.totalMs)}`);

  const deployment = await startBenchDeployment({ clusterId: CLUSTER, databaseUrl: db.url });
  const http = new Http(deployment.url);
  const root = deployment.rootToken;
  const values = await pickValues(client);
  const list = scenarios(values);

  // Every list scenario twice: the default (count=exact: items and count queries) and count=none.
  const runs = [];
  for (const s of list) {
    if (s.kind === 'get') {
      runs.push({
        ...s,
        variant: '',
        run: async (i) => (await http.ok('GET', s.path(i), { token: root })).ms,
      });
      continue;
    }
    for (const count of ['exact', 'none']) {
      runs.push({
        ...s,
        id: `${s.id}:${count}`,
        base: s.id,
        count,
        run: async (i) => {
          const query = { ...s.params(i), ...(count === 'none' ? { count: 'none' } : {}) };
          const r = await http.ok('GET', '/svc/v1/collections', { token: root, query });
          return r.ms;
        },
      });
    }
  }
  const perRound = Math.max(1, Math.round(REQUESTS / ROUNDS));
  log(
    `measuring ${runs.length} scenarios: ${WARMUP} warm-up + ${ROUNDS} x ${perRound} requests each`,
  );
  const { results, load } = await measure(runs, {
    warmup: WARMUP,
    rounds: ROUNDS,
    perRound,
    log,
    budgetMs: BUDGET_MS,
  });
  // Which plans (generic or custom) the server's sessions used for its prepared statements, read
  // right after the measurement: node-postgres closes sessions idle for 10 s, and their prepared
  // statements (and counters) with them.
  const planCounts = await preparedPlanCounts(deployment.coreDb);

  // Matches (items_available) and EXPLAIN of one request per scenario, as the server ran it.
  const caller = { uuid: `${CLUSTER}-tpzed-000000000000000`, isAdmin: true, isActive: true };
  const { collectionRules } = dist('apps/core/dist/resources/collections/rules.js');
  const evidence = {};
  for (const s of list) {
    if (s.kind === 'get') continue;
    const params = s.params(0);
    const compiled = compileListRequest({
      rules: collectionRules,
      cluster: deployment.cluster,
      caller,
      params,
    });
    const e = await explainListRequest(client, {
      request: () => http.ok('GET', '/svc/v1/collections', { token: root, query: params }),
      compiled,
    });
    const pageOffset = Number(params.offset ?? 0);
    const noneParams = { ...params, count: 'none' };
    const eNone = compileListRequest({
      rules: collectionRules,
      cluster: deployment.cluster,
      caller,
      params: noneParams,
    });
    if (eNone.count !== null || eNone.items.text !== compiled.items.text)
      throw new Error('count=none compiles differently');
    evidence[s.id] = {
      ...e,
      matches: e.body.items_available,
      returned: e.body.items.length,
      offset: pageOffset,
    };
  }

  const shortChoice = (name) => {
    const c = name ? planCounts[name] : null;
    return c ? `${c.generic}g/${c.custom}c` : '';
  };
  const stampEnd = codeStamp();

  // ---------------------------------------------------------------- output
  heading('lists benchmark: data');
  out(
    g.totalMs === null
      ? `reused database ${db.name} (BENCH_DATABASE): no generation`
      : `scale ${SCALE}; generation ${fmtSeconds(g.totalMs)} in total (set-based SQL, migration indexes in place)`,
  );
  out(
    table([['step', 'time'], ...Object.entries(g.timings).map(([k, ms]) => [k, fmtSeconds(ms)])]),
  );
  out();
  out(
    table([
      ['table', 'rows', 'total MB', 'index MB'],
      ...g.sizes.map((s) => [s.table, fmtInt(s.rows), s.totalMB, s.indexMB]),
    ]),
  );
  out(permissionsLine(g.recompute));

  if (EXPLAIN) {
    heading('lists benchmark: EXPLAIN (ANALYZE, BUFFERS) of the SQL the server ran');
    out(
      'Each request was traced in-process (every statement the core sent to PostgreSQL) and its list',
    );
    out('statements compared with parseListParams + compileList + the collections access policy.');
    for (const s of list) {
      const e = evidence[s.id];
      if (!e) continue;
      out();
      out(
        `### ${s.id}: ${s.label} — ${fmtInt(e.matches)} matching, SQL identical to compileList: ${e.verified ? 'yes' : 'NO'}`,
      );
      for (const [what, x] of [
        ['items query (also the whole of count=none)', e.items],
        ['count query (count=exact only)', e.count],
      ]) {
        if (!x) continue;
        const choice = planCounts[x.name];
        const server = choice
          ? ` — the server's sessions ran it with ${choice.generic} generic and ${choice.custom} custom plans`
          : '';
        printPlan(`${s.id} ${what}: custom plan${server}`, x);
        if (x.generic)
          printPlan(
            `${s.id} ${what}: generic plan (plan_cache_mode = force_generic_plan)`,
            x.generic,
          );
      }
    }
  }

  heading('lists benchmark: latency through the gateway (sequential, root token)');
  const base = results['get-root'].p50;
  const rows = [
    [
      'scenario',
      'count',
      'matches',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'n',
      'round p50s',
      'x base',
      'target',
      'result',
      'db ms',
      'generic db ms',
      'JIT ms',
      'server plans',
      'items index',
      'count index',
    ],
  ];
  const summary = {};
  for (const r of runs) {
    const st = results[r.id];
    const e = evidence[r.base];
    const counted = r.count === 'exact';
    const target =
      r.target !== undefined && (r.targetOn ?? 'exact') === r.count ? r.target : undefined;
    const result = passFail(st.p50, target);
    rows.push([
      r.base ?? r.id,
      r.count ?? '',
      e ? fmtInt(e.matches) : '',
      fmtMs(st.p50),
      fmtMs(st.p90),
      fmtMs(st.p99),
      st.n,
      roundsText(st),
      (st.p50 / base).toFixed(1),
      target === undefined ? (r.target !== undefined ? `(${r.target})` : '') : `<= ${target}`,
      result,
      e?.items
        ? fmtMs(Math.max(e.items.executionMs, counted && e.count ? e.count.executionMs : 0))
        : '',
      e?.items?.generic
        ? fmtMs(
            Math.max(
              e.items.generic.executionMs,
              counted && e.count?.generic ? e.count.generic.executionMs : 0,
            ),
          )
        : '',
      e?.items ? fmtMs(e.items.jitMs + (counted && e.count ? e.count.jitMs : 0)) : '',
      e?.items
        ? [shortChoice(e.items.name), counted ? shortChoice(e.count?.name) : '']
            .filter(Boolean)
            .join(' + ')
        : '',
      e?.items ? e.items.indexes.join(',') || 'SEQ' : '',
      counted && e?.count ? e.count.indexes.join(',') || 'SEQ ' + e.count.seqScans.join(',') : '',
    ]);
    summary[r.id] = {
      label: r.label,
      count: r.count ?? null,
      p50: round(st.p50),
      p90: round(st.p90),
      p99: round(st.p99),
      roundP50s: st.roundP50s,
      n: st.n,
      target: target ?? null,
      pass: result === '' ? null : result === 'PASS',
      matches: e?.matches ?? null,
      itemsIndexes: e?.items?.indexes ?? null,
      itemsExecMs: e?.items?.executionMs ?? null,
      itemsJitMs: e?.items?.jitMs ?? null,
      countIndexes: counted ? (e?.count?.indexes ?? null) : null,
      countExecMs: counted ? (e?.count?.executionMs ?? null) : null,
      countJitMs: counted ? (e?.count?.jitMs ?? null) : null,
      itemsGenericExecMs: e?.items?.generic?.executionMs ?? null,
      countGenericExecMs: counted ? (e?.count?.generic?.executionMs ?? null) : null,
      serverPlans: {
        items: e?.items?.name ? (planCounts[e.items.name] ?? null) : null,
        count: counted && e?.count?.name ? (planCounts[e.count.name] ?? null) : null,
      },
    };
  }
  out(table(rows));
  out();
  for (const s of list) {
    const e = evidence[s.id];
    out(
      `  ${s.id.padEnd(17)} ${s.label}${e ? ` — ${fmtInt(e.matches)} matches (${((100 * e.matches) / SIZES.collections).toFixed(2)} % of collections)` : ''}`,
    );
  }
  out();
  out(
    'Targets (p50): indexed and properties filters <= 15 ms, any ilike <= 80 ms, count=none first page <= 10 ms.',
  );
  out(
    'They are judged on the default request (count=exact: the items and the count query, run in parallel',
  );
  out(
    'on two sessions), except the first page, judged with count=none; the other variant is shown in',
  );
  out(
    'parentheses. "x base" = p50 / p50 of a GET by uuid (the stack floor on this machine right now).',
  );
  out(
    '"db ms": EXPLAIN ANALYZE execution time of the slower of the two queries (they run in parallel);',
  );
  out(
    '"JIT ms": of which JIT compilation (items + count). The core prepares its statements: after five',
  );
  out(
    'executions a session may switch to the generic plan; "generic db ms" is its EXPLAIN ANALYZE time and',
  );
  out(
    '"server plans" how many generic (g) and custom (c) plans the core\'s sessions actually used (items + count).',
  );
  out(
    `Load: ${load.cpus} CPUs; 1-min load average ${load.loadavgStart[0]} at start, ${load.loadavgEnd[0]} at end; machine CPU busy per round: ${load.rounds.map((r) => (r.cpuBusy === null ? '?' : Math.round(r.cpuBusy * 100) + '%')).join(', ')}`,
  );
  const failed = Object.entries(summary)
    .filter(([, s]) => s.pass === false)
    .map(([id]) => id);
  out(failed.length ? `Targets missed: ${failed.join(', ')}` : 'All targets met.');
  out(
    `Total time ${fmtSeconds(performance.now() - t0)}. Code measured: commit ${stampStart.head}, build of ${stampStart.newestDist}.`,
  );
  if (codeChanged(stampStart, stampEnd))
    out(
      `WARNING: the build changed during the run (now ${stampEnd.head}, ${stampEnd.newestDist}): the figures may mix two versions.`,
    );
  const unverified = Object.entries(evidence)
    .filter(([, e]) => !e.verified)
    .map(([id]) => id);
  if (unverified.length)
    out(`WARNING: traced SQL differs from compileList for: ${unverified.join(', ')}`);
  jsonLine({
    bench: 'lists',
    scale: SCALE,
    code: { ...stampStart, changedDuringRun: codeChanged(stampStart, stampEnd) },
    sizes: Object.fromEntries(g.sizes.map((s) => [s.table, s.rows])),
    database: db.reused ? db.name : null,
    generationMs: g.totalMs === null ? null : Math.round(g.totalMs),
    generationSteps: Object.fromEntries(
      Object.entries(g.timings).map(([k, v]) => [k, Math.round(v)]),
    ),
    recomputeAllPermissions: recomputeJson(g.recompute),
    materializedPermissionsRows:
      g.sizes.find((t) => t.table === 'materialized_permissions')?.rows ?? null,
    baselineP50: round(base),
    scenarios: summary,
    load,
    sqlVerified: unverified.length === 0,
    targetsMissed: failed,
  });
  return STRICT && failed.length > 0 ? 2 : 0;
}

const round = (x) => (x === null ? null : Number(x.toFixed(3)));

runMain(main);
