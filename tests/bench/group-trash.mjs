// Trash and untrash of a big project (groups.md §6; groups issue: ≤ 2 s each with 100,000
// descendants).
//
//   node tests/bench/group-trash.mjs          (after `pnpm build`; `pnpm bench` runs it via all.mjs)
//   BENCH_GROUPS=100000 BENCH_COLLECTIONS=0 node tests/bench/group-trash.mjs   all descendants projects
//
// A fresh database (svc_bench_gtrash_<random>, dropped at the end) with the migrations applied.
// Through the API: a user and its project P. Then, with set-based SQL, the descendants of P: a
// tree of BENCH_GROUPS subprojects (default 10,000: 100 under P, the rest spread under those)
// and BENCH_COLLECTIONS collections (default 90,000) spread over P and the subprojects, then
// BENCH_REQUESTS Committed container requests outside P (default 1,000), then VACUUM ANALYZE
// (the steady state autovacuum reaches after a bulk load). Then,
// as the user through the gateway, BENCH_ROUNDS (default 3) times: POST /groups/P/trash,
// GET /groups/P (404), POST /groups/P/untrash, GET /groups/P (200). Prints each latency, the
// median and max against the 2 s target, and one JSON line.
//
// Environment: BENCH_GROUPS, BENCH_COLLECTIONS, BENCH_REQUESTS, BENCH_ROUNDS, BENCH_STRICT=1 (exit 2 when the
// target is missed), DATABASE_URL (the PostgreSQL server).
import { fmtInt, fmtMs, makeLog, numberEnv, flagEnv } from './lib/common.mjs';
import { connect, createBenchDatabase, runMain } from './lib/database.mjs';
import { Http, startBenchDeployment } from './lib/deployment.mjs';
import { heading, jsonLine, out, passFail, table } from './lib/report.mjs';

const log = makeLog('gtrash');
const CLUSTER = 'bgtrs';
const GROUPS = numberEnv('BENCH_GROUPS', 10_000, { integer: true, min: -1 });
const COLLECTIONS = numberEnv('BENCH_COLLECTIONS', 90_000, { integer: true, min: -1 });
const REQUESTS = numberEnv('BENCH_REQUESTS', 1_000, { integer: true, min: -1 });
const ROUNDS = numberEnv('BENCH_ROUNDS', 3, { integer: true });
const TARGET_MS = 2000;

/** Subprojects: the first 100 under P, each further one under one of those before it. */
async function seed(client, project, user) {
  const top = Math.min(100, GROUPS);
  const uuid = (prefix, i) =>
    `'${CLUSTER}-' || '${prefix}' || '-' || substr(md5('${prefix}' || ${i}), 1, 15)`;
  const t0 = performance.now();
  await client.query(`SET synchronous_commit = off`);
  await client.query(`
    INSERT INTO groups (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, group_class, properties)
    SELECT ${uuid('j7d0g', 'i')},
           CASE WHEN i <= ${top} THEN '${project}' ELSE ${uuid('j7d0g', `((i - 1) % ${top}) + 1 + ${top} * ((i - 1) / ${top} / 2)`)} END,
           now(), now(), '${user}', 'sub ' || i, 'project', '{}'
      FROM generate_series(1, ${GROUPS}) AS i`);
  await client.query(`
    INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, portable_data_hash)
    SELECT ${uuid('4zz18', 'i')},
           CASE WHEN ${GROUPS} = 0 OR i % 10 = 0 THEN '${project}' ELSE ${uuid('j7d0g', `(i % ${Math.max(GROUPS, 1)}) + 1`)} END,
           now(), now(), '${user}', 'c ' || i, 'd41d8cd98f00b204e9800998ecf8427e+0'
      FROM generate_series(1, ${COLLECTIONS}) AS i`);
  // Committed requests elsewhere (the caller's home project): trash and untrash recompute the
  // priorities of those beneath P, so the lookup must not be skipped as on an empty table.
  await client.query(`
    INSERT INTO container_requests (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, state, priority, container_count_max, container_uuid)
    SELECT ${uuid('xvhdp', 'i')}, '${user}', now(), now(), '${user}', 'r ' || i, 'Committed', 1, 3,
           ${uuid('dz642', 'i')}
      FROM generate_series(1, ${REQUESTS}) AS i`);
  await client.query(`VACUUM ANALYZE container_requests`);
  await client.query(`VACUUM ANALYZE groups`);
  await client.query(`VACUUM ANALYZE collections`);
  const { rows } = await client.query(
    `WITH RECURSIVE t(uuid) AS (SELECT $1::text COLLATE "C" UNION SELECT g.uuid FROM groups g JOIN t ON g.owner_uuid = t.uuid)
     SELECT (SELECT count(*) FROM t) - 1 AS groups,
            (SELECT count(*) FROM collections c WHERE c.owner_uuid IN (SELECT uuid FROM t)) AS collections`,
    [project],
  );
  log(`seeded in ${fmtMs(performance.now() - t0)}: ${JSON.stringify(rows[0])}`);
  return { groups: Number(rows[0].groups), collections: Number(rows[0].collections) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await runMain(async () => {
  const db = await createBenchDatabase('svc_bench_gtrash_');
  const deployment = await startBenchDeployment({ clusterId: CLUSTER, databaseUrl: db.url });
  const http = new Http(deployment.url);
  const root = `v2/${CLUSTER}-gj3su-000000000000000/${deployment.rootToken}`;
  const user = (
    await http.ok('POST', '/svc/v1/users', {
      token: root,
      json: { user: { email: 'bench@example.com', is_active: true } },
    })
  ).body;
  const tok = (
    await http.ok('POST', '/svc/v1/api_client_authorizations', {
      token: root,
      json: { api_client_authorization: { owner_uuid: user.uuid } },
    })
  ).body;
  const token = `v2/${tok.uuid}/${tok.api_token}`;
  const project = (
    await http.ok('POST', '/svc/v1/groups', {
      token,
      json: { group: { name: 'big', group_class: 'project' } },
    })
  ).body.uuid;
  const client = await connect(db.url);
  const counts = await seed(client, project, user.uuid);
  const descendants = counts.groups + counts.collections;

  const trash = [];
  const untrash = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t = await http.ok('POST', `/svc/v1/groups/${project}/trash`, { token });
    if (!t.body.is_trashed) throw new Error('not trashed');
    trash.push(t.ms);
    await http.ok('GET', `/svc/v1/groups/${project}`, { token }, 404);
    const u = await http.ok('POST', `/svc/v1/groups/${project}/untrash`, { token });
    if (u.body.is_trashed) throw new Error('still trashed');
    untrash.push(u.ms);
    await http.ok('GET', `/svc/v1/groups/${project}`, { token });
    log(`round ${round + 1}: trash ${fmtMs(t.ms)}, untrash ${fmtMs(u.ms)}`);
  }

  heading(`Trash and untrash of a project with ${fmtInt(descendants)} descendants`);
  out(
    `${fmtInt(counts.groups)} subprojects, ${fmtInt(counts.collections)} collections; ${ROUNDS} rounds`,
  );
  const rows = [
    ['operation', 'median', 'max', 'target', 'result'],
    [
      'trash',
      fmtMs(median(trash)),
      fmtMs(Math.max(...trash)),
      '≤ 2 s',
      passFail(Math.max(...trash), TARGET_MS),
    ],
    [
      'untrash',
      fmtMs(median(untrash)),
      fmtMs(Math.max(...untrash)),
      '≤ 2 s',
      passFail(Math.max(...untrash), TARGET_MS),
    ],
  ];
  out(table(rows));
  jsonLine({
    bench: 'group-trash',
    descendants,
    subprojects: counts.groups,
    collections: counts.collections,
    trashMs: trash.map((x) => Math.round(x)),
    untrashMs: untrash.map((x) => Math.round(x)),
  });
  const missed = Math.max(...trash, ...untrash) > TARGET_MS;
  return missed && flagEnv('BENCH_STRICT') ? 2 : 0;
});
