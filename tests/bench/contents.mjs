// Benchmark of groups.contents on a huge project and a deep project tree (groups issue).
//
//   node tests/bench/contents.mjs       (after `pnpm build`; `pnpm bench` runs it via all.mjs)
//   BENCH_SCALE=0.01 node tests/bench/contents.mjs     smoke run
//
// A fresh database (svc_bench_contents_<random>, dropped at the end) with the migrations
// applied. Through the API: a user U with a token, U's project P and U's project R. Then, with
// set-based SQL (generate_series), P is filled with 1,000,000 items at scale 1 (5 % project
// groups, 5 % container requests, 10 % workflows, 80 % collections, modified_at spread over a
// year with many ties), and R gets a tree of 10,000 projects (ten children per project, five
// levels) holding five collections each. VACUUM ANALYZE, then sequential requests as U through
// the gateway: the first page of P (default limit 100, count=exact, and count=none), a page at
// offset 500,000, and the first page of R with recursive=true. Prints p50/p90 per scenario
// against the targets and one JSON line.
//
// Environment: BENCH_SCALE (default 1), BENCH_REQUESTS (measured requests per scenario, default
// 40), BENCH_WARMUP (default 5), BENCH_KEEP_DB=1, BENCH_STRICT=1 (exit 2 when a target is
// missed), BENCH_DATABASE=<name> (measure a kept database again, without seeding; BENCH_SCALE
// must match), DATABASE_URL (the PostgreSQL server).
import { cpus, loadavg } from 'node:os';
import { fmtInt, fmtMs, makeLog, numberEnv, sleep } from './lib/common.mjs';
import { connect, createBenchDatabase, existingDatabase, runMain } from './lib/database.mjs';
import { Http, benchUser, startBenchDeployment } from './lib/deployment.mjs';
import { heading, jsonLine, out, passFail, table } from './lib/report.mjs';
import { stats } from './lib/timing.mjs';

const log = makeLog('contents');
const C = 'bnch1';
const SCALE = numberEnv('BENCH_SCALE', 1);
const REQUESTS = numberEnv('BENCH_REQUESTS', 40, { integer: true, min: 1 });
const WARMUP = numberEnv('BENCH_WARMUP', 5, { integer: true });
const ITEMS = Math.max(1000, Math.round(1_000_000 * SCALE));
const TREE = Math.max(100, Math.round(10_000 * SCALE));
const TARGETS = { first: 25, deep: 150, recursive: 50 };

/** `<cluster>-<infix>-<15 chars from md5(seed)>`, as SQL over a seed expression. */
const uuid = (infix, seed) =>
  `'${C}-${infix}-' || substr(translate(lower(encode(decode(md5(${seed}), 'hex'), 'base64')), '+/', 'xy'), 1, 15)`;

async function seed(db, P, R, owner) {
  const t0 = performance.now();
  const share = (f) => Math.round(ITEMS * f);
  const [nGroups, nRequests, nWorkflows] = [share(0.05), share(0.05), share(0.1)];
  const nCollections = ITEMS - nGroups - nRequests - nWorkflows;
  // Times in seconds over a year; `% 97` seconds repeat so that ties on modified_at are common.
  const at = (i) => `now() - make_interval(secs => (${i} / 3) % 31536000 + (${i} % 97))`;
  await db.query(`SET synchronous_commit = off`);
  await db.query(
    `
    INSERT INTO groups (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, group_class)
    SELECT ${uuid('j7d0g', `'pg' || i`)}, $1, ${at('i')}, ${at('i')}, $2, 'sub ' || i, 'project'
      FROM generate_series(1, ${nGroups}) i`,
    [P, owner],
  );
  await db.query(
    `
    INSERT INTO container_requests (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, container_count_max, container_image, cwd, command, output_path)
    SELECT ${uuid('xvhdp', `'pr' || i`)}, $1, ${at('i')}, ${at('i')}, $2, 'request ' || i, 3, 'img', '/', '["true"]', '/out'
      FROM generate_series(1, ${nRequests}) i`,
    [P, owner],
  );
  await db.query(
    `
    INSERT INTO workflows (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, definition)
    SELECT ${uuid('7fd4e', `'pw' || i`)}, $1, ${at('i')}, ${at('i')}, $2, 'workflow ' || i, '{}'
      FROM generate_series(1, ${nWorkflows}) i`,
    [P, owner],
  );
  await db.query(
    `
    INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, portable_data_hash, trash_at)
    SELECT ${uuid('4zz18', `'pc' || i`)}, $1, ${at('i')}, ${at('i')}, $2, 'collection ' || i,
           'd41d8cd98f00b204e9800998ecf8427e+0', CASE WHEN i % 100 = 0 THEN now() - interval '1 day' END
      FROM generate_series(1, ${nCollections}) i`,
    [P, owner],
  );
  // The tree under R: project i's parent is project i / 10 (R for i < 10).
  await db.query(
    `
    INSERT INTO groups (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, group_class)
    SELECT ${uuid('j7d0g', `'t' || i`)},
           CASE WHEN i < 10 THEN $1 ELSE ${uuid('j7d0g', `'t' || (i / 10)`)} END,
           ${at('i')}, ${at('i')}, $2, 'tree ' || i, 'project'
      FROM generate_series(1, ${TREE}) i`,
    [R, owner],
  );
  await db.query(
    `
    INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, portable_data_hash)
    SELECT ${uuid('4zz18', `'tc' || i || '.' || k`)}, ${uuid('j7d0g', `'t' || i`)}, ${at('i * 5 + k')}, ${at('i * 5 + k')}, $1,
           'tree collection ' || i || '.' || k, 'd41d8cd98f00b204e9800998ecf8427e+0'
      FROM generate_series(1, ${TREE}) i, generate_series(1, 5) k`,
    [owner],
  );
  log(
    `seeded ${fmtInt(ITEMS)} items in P and a tree of ${fmtInt(TREE)} projects in ${fmtMs(performance.now() - t0)}`,
  );
  const t1 = performance.now();
  // As autovacuum leaves a table at rest: statistics and the visibility map. A VACUUM while
  // another session of this database still holds an older snapshot marks nothing all-visible
  // (a deep offset then reads the heap of every row it skips), so it is repeated until the
  // map covers the collections table, and the coverage is printed.
  let visible = 0;
  for (let attempt = 0; attempt < 5 && visible < 0.95; attempt++) {
    if (attempt > 0) await sleep(2000);
    await db.query('VACUUM ANALYZE');
    const { rows } = await db.query(
      `SELECT relallvisible::float / greatest(relpages, 1) AS v FROM pg_class WHERE relname = 'collections'`,
    );
    visible = Number(rows[0].v);
  }
  log(
    `VACUUM ANALYZE in ${fmtMs(performance.now() - t1)}; visibility map covers ${Math.round(visible * 100)}% of collections`,
  );
  return { nGroups, nRequests, nWorkflows, nCollections };
}

async function measure(http, token, query) {
  for (let i = 0; i < WARMUP; i++)
    await http.ok('GET', '/svc/v1/groups/contents', { token, query });
  const ms = [];
  let last;
  for (let i = 0; i < REQUESTS; i++) {
    last = await http.ok('GET', '/svc/v1/groups/contents', { token, query });
    ms.push(last.ms);
  }
  return { ...stats(ms), body: last.body };
}

/** A user, a token and the projects P and R: made here, or found in a kept database. */
async function setUp(http, root, db, reused) {
  if (reused) {
    const { rows } = await db.query(
      `SELECT p.uuid AS p, r.uuid AS r, p.owner_uuid AS owner FROM groups p, groups r
        WHERE p.name = 'P' AND r.name = 'R' AND p.owner_uuid = r.owner_uuid`,
    );
    const tok = await http.ok('POST', '/svc/v1/api_client_authorizations', {
      token: root,
      json: { api_client_authorization: { owner_uuid: rows[0].owner } },
    });
    const { rows: trashed } = await db.query(
      `SELECT count(*)::int AS n FROM collections WHERE owner_uuid = $1 AND trash_at <= now()`,
      [rows[0].p],
    );
    return {
      token: `v2/${tok.body.uuid}/${tok.body.api_token}`,
      P: rows[0].p,
      R: rows[0].r,
      visible: ITEMS - trashed[0].n,
    };
  }
  const user = await benchUser(http, root, { email: 'contents@example.com' });
  const token = user.token;
  const project = async (name) =>
    (
      await http.ok('POST', '/svc/v1/groups', {
        token,
        json: { group: { name, group_class: 'project' } },
      })
    ).body.uuid;
  const P = await project('P');
  const R = await project('R');
  const counts = await seed(db, P, R, user.uuid);
  return { token, P, R, visible: ITEMS - Math.floor(counts.nCollections / 100) };
}

async function main() {
  const reuse = process.env.BENCH_DATABASE;
  const { url, reused } = reuse
    ? existingDatabase(reuse)
    : { ...(await createBenchDatabase('svc_bench_contents_')), reused: false };
  const deployment = await startBenchDeployment({ clusterId: C, databaseUrl: url });
  const http = new Http(deployment.url);
  const db = await connect(url);
  const { token, P, R, visible } = await setUp(http, deployment.rootToken, db, reused);

  const scenarios = [
    ['first page (count=exact)', { uuid: P }, TARGETS.first],
    ['first page (count=none)', { uuid: P, count: 'none' }, null],
    ['offset 500,000 of 1,000,000', { uuid: P, offset: Math.round(ITEMS / 2) }, TARGETS.deep],
    ['recursive first page', { uuid: R, recursive: true }, TARGETS.recursive],
    ['recursive first page (count=none)', { uuid: R, recursive: true, count: 'none' }, null],
  ];
  const results = {};
  for (const [name, query, target] of scenarios) {
    const s = await measure(http, token, query);
    if (s.body.items.length !== 100) throw new Error(`${name}: ${s.body.items.length} items`);
    if (query.uuid === P && query.count !== 'none' && s.body.items_available !== visible) {
      throw new Error(`${name}: items_available ${s.body.items_available}, expected ${visible}`);
    }
    results[name] = { p50: s.p50, p90: s.p90, n: s.n, target, pass: passFail(s.p50, target) };
    log(`${name}: p50 ${fmtMs(s.p50)}`);
  }
  heading(
    `groups.contents: ${fmtInt(ITEMS)} items in one project, recursive over ${fmtInt(TREE)} projects`,
  );
  out(
    table([
      ['scenario', 'p50', 'p90', 'n', 'target p50', ''],
      ...Object.entries(results).map(([name, r]) => [
        name,
        fmtMs(r.p50),
        fmtMs(r.p90),
        String(r.n),
        r.target === null ? '—' : `≤ ${r.target} ms`,
        r.pass,
      ]),
    ]),
  );
  out();
  out(`load average (1 min) at the end: ${loadavg()[0].toFixed(2)} on ${cpus().length} CPUs`);
  jsonLine({
    bench: 'contents',
    scale: SCALE,
    items: ITEMS,
    tree: TREE,
    results,
    load1: loadavg()[0],
  });
  const missed = Object.values(results).some((r) => r.pass === 'FAIL');
  return missed && /^(1|true|yes)$/i.test(process.env.BENCH_STRICT ?? '') ? 2 : 0;
}

await runMain(main);
