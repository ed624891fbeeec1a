// Large-dataset benchmark of the permission model ("permission model" issue).
//
//   node tests/bench/permissions.mjs        (after `pnpm build`; `pnpm bench` runs it via all.mjs)
//   BENCH_SCALE=0.01 node tests/bench/permissions.mjs     smoke run, seconds of generation
//
// A fresh database (svc_bench_perms_<random>, dropped at the end, also on failure and SIGINT)
// with the migrations applied, filled with set-based SQL. At scale 1: 10,000 users (every 25th
// inactive, 10 admins), 50,000 groups (47,000 projects in trees under 12,000 top-level
// projects, 2,500 roles, 500 filters; 0.5 % of projects trashed), 200,000 permission links
// (all-users membership of every active user both ways, role creators' can_manage, user → role
// memberships with the role → user can_read, role → project, user → project, role → collection,
// user → collection, role → role, user → user can_manage, ten projects shared with All users)
// and 2,000,000 collections (15 % in home projects, the rest in projects). group_ancestors is
// filled as the server keeps it, materialized_permissions by recomputeAllPermissions (timed).
// A token per active user (sha256 digests of secrets chosen here); the measured users' tokens
// are made through the API. Then, through the gateway (core + gateway in this process),
// sequential requests as a typical non-admin user (the one with the median number of
// materialized rows who owns a project): the first page of readable collections (count=exact
// and count=none), get by uuid, and creating + deleting permission links (user → project,
// role → collection, user → role) with their incremental refresh. Prints generation times,
// the latency table with targets, EXPLAIN (ANALYZE, BUFFERS) of the list, the get, and every
// statement of a link create and delete (replayed in a rolled-back transaction, so the refresh
// statements are explained as they ran), and one JSON line.
//
// Environment:
//   BENCH_SCALE       data scale (default 1; see above)
//   BENCH_REQUESTS    measured requests per scenario (default 120, split over the rounds;
//                     slow informational scenarios do fewer)
//   BENCH_ROUNDS      rounds over all scenarios (default 3)
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
// Exit status: 1 when something broke (a request failed, the permission table drifted).
import { createHash, randomBytes } from 'node:crypto';
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
import {
  collectionUuid,
  DATA_TABLES,
  Generator,
  groupUuid,
  id15,
  fillPermissions,
  tableSizes,
  userUuid,
  uuidSql,
} from './lib/generate.mjs';
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
import {
  explainBoth,
  preparedPlanCounts,
  replayExplained,
  statementLabel,
  traced,
  untraced,
} from './lib/sql.mjs';
import { measure, roundsText } from './lib/timing.mjs';

const log = makeLog('perms');
const CLUSTER = 'bperm';

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
const N = {
  users: scaled(10_000, 50),
  admins: scaled(10, 1),
  projects: scaled(47_000, 200),
  topLevel: scaled(12_000, 60),
  roles: scaled(2_500, 20),
  filters: scaled(500, 5),
  collections: scaled(2_000_000, 5_000),
  links: scaled(200_000, 1_000),
  memberships: scaled(35_000, 150),
  roleProject: scaled(30_000, 120),
  roleCollection: scaled(15_000, 60),
  userCollection: scaled(10_000, 40),
  userUser: scaled(300, 2),
  roleRole: scaled(1_000, 5),
  publicProjects: scaled(10, 1),
};

const TARGETS = { list: 20, get: 3, link: 50 };

// ---------------------------------------------------------------- generation

/** `n` candidate links: tail and head SQL expressions, names drawn from `names` ([name, share]…). */
function candidates(n, tail, head, names) {
  let acc = 0;
  const cases = names
    .map(([name, share], i) => {
      acc += share;
      return i === names.length - 1 ? `ELSE '${name}'` : `WHEN r < ${acc} THEN '${name}'`;
    })
    .join(' ');
  const nameSql = names.length === 1 ? `'${names[0][0]}'` : `CASE ${cases} END`;
  return `SELECT tail, head, ${nameSql} AS name
            FROM (SELECT ${tail} AS tail, ${head} AS head, random() AS r
                    FROM generate_series(1, ${Math.ceil(n * 1.3)}) k) x`;
}

async function generate(url, salt) {
  const client = untraced(await connect(url));
  const gen = new Generator(client, CLUSTER);
  const c = CLUSTER;
  const b = gen.builtIns;
  const t0 = performance.now();
  await gen.prepare();
  await gen.builtInRows();
  await gen.users({ count: N.users, admins: N.admins });
  await gen.groups({
    projects: N.projects,
    topLevel: N.topLevel,
    roles: N.roles,
    filters: N.filters,
  });
  await gen.collections({ count: N.collections, homeShare: 0.15 });

  const P = N.projects;
  const R = N.roles;
  const user = `${userUuid(c, `1 + floor(random() * ${N.users})::int`)}`;
  const role = `${groupUuid(c, `${P} + 1 + floor(random() * ${R})::int`)}`;
  const skewedRole = `${groupUuid(c, `${P} + 1 + floor(power(random(), 2) * ${R})::int`)}`;
  const project = `${groupUuid(c, `1 + floor(random() * ${P})::int`)}`;
  const collection = `${collectionUuid(c, `1 + floor(random() * ${N.collections})::int`)}`;
  const levels = [
    ['can_read', 0.5],
    ['can_write', 0.4],
    ['can_manage', 0.1],
  ];
  // Role creators manage their role (as a create by a non-system user makes them).
  await gen.permissionLinks(
    'rc',
    `SELECT ${user} AS tail, ${groupUuid(c, `${P} + k`)} AS head, 'can_manage' AS name FROM generate_series(1, ${R}) k`,
    R,
  );
  await gen.permissionLinks(
    'mb',
    candidates(N.memberships, user, skewedRole, [
      ['can_write', 0.6],
      ['can_read', 0.3],
      ['can_manage', 0.1],
    ]),
    N.memberships,
  );
  // Members of a role can read each other through it: role → user can_read (not an edge).
  await gen.permissionLinks(
    'rv',
    `SELECT l.head_uuid AS tail, l.tail_uuid AS head, 'can_read' AS name
       FROM links l JOIN groups g ON g.uuid = l.head_uuid AND g.group_class = 'role'
      WHERE l.link_class = 'permission' AND substr(l.tail_uuid, 7, 5) = 'tpzed' AND l.head_uuid <> '${b.allUsersGroup}'`,
    N.memberships + R,
  );
  await gen.permissionLinks('rp', candidates(N.roleProject, role, project, levels), N.roleProject);
  await gen.permissionLinks(
    'rc2',
    candidates(N.roleCollection, role, collection, [
      ['can_read', 0.7],
      ['can_write', 0.3],
    ]),
    N.roleCollection,
  );
  await gen.permissionLinks(
    'uc',
    candidates(N.userCollection, user, collection, [
      ['can_read', 0.7],
      ['can_write', 0.3],
    ]),
    N.userCollection,
  );
  await gen.permissionLinks(
    'uu',
    candidates(N.userUser, user, user, [['can_manage', 1]]),
    N.userUser,
  );
  await gen.permissionLinks(
    'rr',
    candidates(N.roleRole, role, role, [
      ['can_read', 0.5],
      ['can_write', 0.5],
    ]),
    N.roleRole,
  );
  await gen.permissionLinks(
    'pub',
    `SELECT '${b.allUsersGroup}' AS tail, ${groupUuid(c, `1 + (k * 7919) % ${N.topLevel}`)} AS head, 'can_read' AS name
       FROM generate_series(1, ${N.publicProjects}) k`,
    N.publicProjects,
  );
  const { rows: have } = await client.query(
    `SELECT count(*)::int AS n FROM links WHERE link_class = 'permission'`,
  );
  await gen.permissionLinks(
    'up',
    candidates(N.links - have[0].n, user, project, levels),
    N.links - have[0].n,
  );
  // One token per active user, as `POST /api_client_authorizations` makes them (digest only).
  await gen.step('api_client_authorizations', async () => {
    const r = await client.query(`
      INSERT INTO api_client_authorizations (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid,
                                             secret_digest, api_client_uuid, scopes)
      SELECT ${uuidSql(c, 'gj3su', `'t' || u.uuid`)}, u.uuid, u.created_at, u.created_at, '${b.systemUser}',
             encode(sha256(convert_to(md5('${salt}' || u.uuid) || md5(u.uuid || '${salt}'), 'UTF8')), 'hex'),
             '${b.internalApiClient}', '["all"]'
        FROM users u WHERE u.is_active AND u.uuid <> '${b.systemUser}'`);
    return r.rowCount;
  });
  await gen.groupAncestors();
  await gen.vacuumAnalyze(DATA_TABLES);
  const recompute = await fillPermissions(gen, url, CLUSTER, RECOMPUTE_TIMEOUT_MS);
  const totalMs = performance.now() - t0;
  const sizes = await tableSizes(client);
  return {
    client,
    timings: gen.timings,
    totalMs,
    recompute,
    sizes,
    linkKinds: await linkKinds(client),
  };
}

/** Permission links by (tail kind -> head kind, name). */
async function linkKinds(client) {
  const { rows } = await client.query(`
    SELECT CASE WHEN tg.uuid IS NOT NULL THEN tg.group_class ELSE substr(l.tail_uuid, 7, 5) END || ' -> '
             || coalesce(hg.group_class, substr(l.head_uuid, 7, 5)) AS kind, l.name, count(*)::int AS n
      FROM links l LEFT JOIN groups hg ON hg.uuid = l.head_uuid LEFT JOIN groups tg ON tg.uuid = l.tail_uuid
     WHERE l.link_class = 'permission' GROUP BY 1, 2 ORDER BY 1, 2`);

  return rows;
}

/** A reused database (BENCH_DATABASE): sizes and links only. */
async function describe(url) {
  const client = untraced(await connect(url));
  return {
    client,
    timings: {},
    totalMs: null,
    recompute: null,
    sizes: await tableSizes(client),
    linkKinds: await linkKinds(client),
  };
}

// ---------------------------------------------------------------- the actors

const one = async (client, text, values = []) => (await client.query(text, values)).rows[0];
const all = async (client, text, values = []) => (await client.query(text, values)).rows;

/** The users, groups and objects the scenarios act on, picked from the data. */
async function pickActors(client) {
  const b = dist('packages/contract/dist/index.js').builtInUuids(CLUSTER);
  const perUser = `
    WITH per AS (
      SELECT u.uuid, (SELECT count(*) FROM materialized_permissions mp WHERE mp.user_uuid = u.uuid) AS n
        FROM users u
       WHERE u.is_active AND NOT u.is_admin AND u.uuid LIKE '${CLUSTER}-tpzed-%' AND u.uuid <> '${b.systemUser}'
         AND EXISTS (SELECT 1 FROM groups g WHERE g.owner_uuid = u.uuid AND g.group_class = 'project'
                        AND g.trash_at IS NULL))
    SELECT uuid, n::int FROM per ORDER BY n, uuid
     OFFSET (SELECT floor(count(*) * $1::float8)::int FROM per) LIMIT 1`;
  const typical = await one(client, perUser, [0.5]);
  const heavy = await one(client, perUser, [0.99]);
  const stats = await one(
    client,
    `
    SELECT count(*)::int AS users, percentile_disc(0.5) WITHIN GROUP (ORDER BY n)::int AS p50,
           percentile_disc(0.9) WITHIN GROUP (ORDER BY n)::int AS p90, max(n)::int AS max
      FROM (SELECT user_uuid, count(*) AS n FROM materialized_permissions GROUP BY user_uuid) x`,
  );
  // The typical user's own top-level project (with the most subprojects) and a collection in it.
  const project = await one(
    client,
    `
    SELECT g.uuid, (SELECT count(*) FROM groups s WHERE s.owner_uuid = g.uuid)::int AS children
      FROM groups g WHERE g.owner_uuid = $1 AND g.group_class = 'project' AND g.trash_at IS NULL
     ORDER BY 2 DESC, g.uuid LIMIT 1`,
    [typical.uuid],
  );
  const collection = await one(
    client,
    `
    SELECT uuid FROM collections WHERE owner_uuid = ANY($1::text[]) AND trash_at IS NULL ORDER BY uuid LIMIT 1`,
    [[project.uuid, typical.uuid]],
  );
  // A typical role (median members among roles with at least 3), and its creator.
  const roleRow = await one(
    client,
    `
    WITH m AS (SELECT g.uuid, count(l.*) AS n FROM groups g
                 JOIN links l ON l.head_uuid = g.uuid AND l.link_class = 'permission' AND substr(l.tail_uuid, 7, 5) = 'tpzed'
                WHERE g.group_class = 'role' AND g.uuid NOT IN ($1, $2, $3) GROUP BY g.uuid HAVING count(l.*) >= 3)
    SELECT m.uuid, m.n::int AS members,
           (SELECT count(*) FROM materialized_permissions mp WHERE mp.target_uuid = m.uuid)::int AS users_reaching,
           (SELECT l.tail_uuid FROM links l WHERE l.head_uuid = m.uuid AND l.name = 'can_manage'
              AND l.link_class = 'permission' AND substr(l.tail_uuid, 7, 5) = 'tpzed'
              AND EXISTS (SELECT 1 FROM users u WHERE u.uuid = l.tail_uuid AND u.is_active AND NOT u.is_admin)
            ORDER BY l.uuid LIMIT 1) AS manager
      FROM m WHERE EXISTS (SELECT 1 FROM links l WHERE l.head_uuid = m.uuid AND l.name = 'can_manage'
                             AND l.link_class = 'permission' AND substr(l.tail_uuid, 7, 5) = 'tpzed')
     ORDER BY m.n, m.uuid OFFSET (SELECT count(*) / 2 FROM m) LIMIT 1`,
    [b.systemGroup, b.allUsersGroup, b.anonymousGroup],
  );
  // A subproject below a project shared with All users, and the user who owns the tree.
  const publicSub = await one(
    client,
    `
    SELECT g.uuid, top.owner_uuid AS manager,
           (SELECT count(*) FROM materialized_permissions mp WHERE mp.target_uuid = g.uuid)::int AS users_reaching
      FROM links l JOIN groups top ON top.uuid = l.head_uuid
      JOIN groups g ON g.owner_uuid = top.uuid AND g.group_class = 'project' AND g.trash_at IS NULL
      JOIN users u ON u.uuid = top.owner_uuid AND u.is_active AND NOT u.is_admin
     WHERE l.link_class = 'permission' AND l.tail_uuid = $1 AND top.trash_at IS NULL
     ORDER BY g.uuid LIMIT 1`,
    [b.allUsersGroup],
  );
  const otherUsers = (
    await all(
      client,
      `
    SELECT u.uuid FROM users u
     WHERE u.is_active AND NOT u.is_admin AND u.uuid LIKE '${CLUSTER}-tpzed-%' AND u.uuid NOT IN ($1, $2, $3)
       AND u.uuid IS DISTINCT FROM $6
       AND NOT EXISTS (SELECT 1 FROM links l WHERE l.link_class = 'permission' AND l.tail_uuid = u.uuid
                          AND l.head_uuid IN ($4, $5, $7))
     ORDER BY md5(u.uuid) LIMIT 20`,
      [
        b.systemUser,
        typical.uuid,
        roleRow.manager,
        project.uuid,
        roleRow.uuid,
        publicSub?.manager ?? null,
        publicSub?.uuid ?? '',
      ],
    )
  ).map((r) => r.uuid);
  const roles = (
    await all(
      client,
      `
    SELECT g.uuid FROM groups g
     WHERE g.group_class = 'role' AND g.uuid NOT IN ($1, $2, $3) AND g.trash_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM links l WHERE l.link_class = 'permission' AND l.tail_uuid = g.uuid AND l.head_uuid = $4)
     ORDER BY md5(g.uuid) LIMIT 20`,
      [b.systemGroup, b.allUsersGroup, b.anonymousGroup, collection.uuid],
    )
  ).map((r) => r.uuid);
  // Collections the typical user can read: through projects, the home project, direct shares.
  const readable = (
    await all(
      client,
      `
    SELECT c.uuid FROM collections c
     WHERE (c.owner_uuid = $1
            OR c.owner_uuid IN (SELECT target_uuid FROM materialized_permissions WHERE user_uuid = $1 AND traverse_owned)
            OR c.uuid IN (SELECT target_uuid FROM materialized_permissions WHERE user_uuid = $1))
       AND c.trash_at IS NULL AND NOT EXISTS (SELECT 1 FROM hidden_groups tg WHERE tg.group_uuid = c.owner_uuid AND tg.trash_at <= now())
     ORDER BY md5(c.uuid) LIMIT 50`,
      [typical.uuid],
    )
  ).map((r) => r.uuid);
  return {
    typical,
    heavy,
    stats,
    project,
    collection,
    role: roleRow,
    otherUsers,
    roles,
    readable,
    publicSub,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const t0 = performance.now();
  const stampStart = codeStamp();
  log(
    `scale ${SCALE}: ${fmtInt(N.users)} users, ${fmtInt(N.projects + N.roles + N.filters)} groups, ${fmtInt(N.links)} permission links, ${fmtInt(N.collections)} collections; load ${load1()}`,
  );
  const db = process.env.BENCH_DATABASE
    ? existingDatabase(process.env.BENCH_DATABASE)
    : await createBenchDatabase('svc_bench_perms_');
  const salt = randomBytes(8).toString('hex');
  const g = db.reused ? await describe(db.url) : await generate(db.url, salt);
  const client = g.client;
  if (g.totalMs !== null) log(`generation done in ${fmtSeconds(g.totalMs)}`);

  const deployment = await startBenchDeployment({ clusterId: CLUSTER, databaseUrl: db.url });
  const http = new Http(deployment.url);
  const root = deployment.rootToken;
  const a = await pickActors(client);
  log(
    `typical user ${a.typical.uuid} (${a.typical.n} materialized rows), project ${a.project.uuid}, role ${a.role.uuid} (${a.role.members} members), public subproject ${a.publicSub?.uuid ?? '-'}`,
  );

  // Tokens of the measured users, made through the API as the root token.
  const tokenFor = async (owner) => {
    const r = await http.ok('POST', '/svc/v1/api_client_authorizations', {
      token: root,
      json: { api_client_authorization: { owner_uuid: owner } },
    });
    return `v2/${r.body.uuid}/${r.body.api_token}`;
  };
  const userToken = await tokenFor(a.typical.uuid);
  const heavyToken = await tokenFor(a.heavy.uuid);
  const managerToken = await tokenFor(a.role.manager);
  const publicToken = a.publicSub ? await tokenFor(a.publicSub.manager) : null;
  // A token inserted by the generation works too (sha256 digest of a secret chosen here; its
  // salt is not kept, so a reused database skips this check).
  if (!db.reused) {
    const sqlToken = `v2/${CLUSTER}-gj3su-${id15(`t${a.typical.uuid}`)}/${md5(salt + a.typical.uuid)}${md5(a.typical.uuid + salt)}`;
    await http.ok('GET', '/svc/v1/users/current', { token: sqlToken });
  }

  const checksum = async () =>
    one(
      client,
      `SELECT count(*)::bigint AS n, coalesce(sum(hashtext(user_uuid || target_uuid || perm_level || traverse_owned)::bigint), 0)::text AS sum FROM materialized_permissions`,
    );
  const before = await checksum();

  const rot = (list) => (i) => list[((i % list.length) + list.length) % list.length];
  const linkPair = (token, tailOf, head, name) => async (i) => {
    const created = await http.ok('POST', '/svc/v1/links', {
      token,
      json: { link: { link_class: 'permission', name, tail_uuid: tailOf(i), head_uuid: head } },
    });
    const deleted = await http.ok('DELETE', `/svc/v1/links/${created.body.uuid}`, { token });
    return { create: created.ms, delete: deleted.ms };
  };
  const listParams = (count) => (count === 'none' ? { count: 'none' } : {});
  const scenarios = [
    {
      id: 'get-root',
      label: 'GET /collections/<uuid> as root (no permission check: the stack floor)',
      run: async (i) =>
        (await http.ok('GET', `/svc/v1/collections/${rot(a.readable)(i)}`, { token: root })).ms,
    },
    {
      id: 'get-user',
      label: 'GET /collections/<uuid> as the typical user (permission check)',
      target: TARGETS.get,
      run: async (i) =>
        (await http.ok('GET', `/svc/v1/collections/${rot(a.readable)(i)}`, { token: userToken }))
          .ms,
    },
    {
      id: 'list-user:exact',
      label: 'first page of readable collections, typical user (default: count=exact)',
      target: TARGETS.list,
      run: async () =>
        (
          await http.ok('GET', '/svc/v1/collections', {
            token: userToken,
            query: listParams('exact'),
          })
        ).ms,
    },
    {
      id: 'list-user:none',
      label: 'first page of readable collections, typical user, count=none',
      target: TARGETS.list,
      run: async () =>
        (
          await http.ok('GET', '/svc/v1/collections', {
            token: userToken,
            query: listParams('none'),
          })
        ).ms,
    },
    {
      id: 'list-heavy:exact',
      label: `first page, user at p99 of materialized rows (${a.heavy.n}), count=exact`,
      perRound: Math.max(2, Math.round(REQUESTS / ROUNDS / 4)),
      warmup: 2,
      run: async () => (await http.ok('GET', '/svc/v1/collections', { token: heavyToken })).ms,
    },
    {
      id: 'list-heavy:none',
      label: `first page, user at p99 of materialized rows (${a.heavy.n}), count=none`,
      perRound: Math.max(2, Math.round(REQUESTS / ROUNDS / 4)),
      warmup: 2,
      run: async () =>
        (
          await http.ok('GET', '/svc/v1/collections', {
            token: heavyToken,
            query: { count: 'none' },
          })
        ).ms,
    },
    {
      id: 'list-root:exact',
      label: 'first page as root (no permission filter), count=exact',
      perRound: Math.max(2, Math.round(REQUESTS / ROUNDS / 4)),
      warmup: 2,
      run: async () => (await http.ok('GET', '/svc/v1/collections', { token: root })).ms,
    },
    {
      id: 'list-root:none',
      label: 'first page as root (no permission filter), count=none',
      run: async () =>
        (await http.ok('GET', '/svc/v1/collections', { token: root, query: { count: 'none' } })).ms,
    },
    {
      id: 'link-user-project',
      label: `user -> own project can_read (${a.project.children} subprojects)`,
      target: TARGETS.link,
      run: linkPair(userToken, rot(a.otherUsers), a.project.uuid, 'can_read'),
    },
    {
      id: 'link-role-collection',
      label: 'role -> collection can_read',
      target: TARGETS.link,
      run: linkPair(userToken, rot(a.roles), a.collection.uuid, 'can_read'),
    },
    {
      id: 'link-user-role',
      label: `user -> role can_write (role of ${a.role.members} members, reaching ${a.role.users_reaching} users)`,
      target: TARGETS.link,
      run: linkPair(managerToken, rot(a.otherUsers), a.role.uuid, 'can_write'),
    },
    ...(a.publicSub
      ? [
          {
            id: 'link-public-sub',
            label: `user -> subproject of a project shared with All users (${a.publicSub.users_reaching} users reach it; informational)`,
            perRound: Math.max(2, Math.round(REQUESTS / ROUNDS / 8)),
            warmup: 1,
            run: linkPair(publicToken, rot(a.otherUsers), a.publicSub.uuid, 'can_read'),
          },
        ]
      : []),
  ];
  const perRound = Math.max(1, Math.round(REQUESTS / ROUNDS));
  log(
    `measuring ${scenarios.length} scenarios: ${WARMUP} warm-up + ${ROUNDS} x ${perRound} requests each (slow informational ones fewer)`,
  );
  const { results, load } = await measure(scenarios, {
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
  const after = await checksum();
  if (before.n !== after.n || before.sum !== after.sum) {
    throw new Error(
      `materialized_permissions changed after create+delete pairs: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
    );
  }

  // ---------------------------------------------------------------- evidence
  const caller = { uuid: a.typical.uuid, isAdmin: false, isActive: true };
  const { collectionRules } = dist('apps/core/dist/resources/collections/rules.js');
  const compiled = compileListRequest({
    rules: collectionRules,
    cluster: deployment.cluster,
    caller,
    params: {},
  });
  const listEvidence = await explainListRequest(client, {
    request: () => http.ok('GET', '/svc/v1/collections', { token: userToken }),
    compiled,
  });
  const heavyList = await explainListRequest(client, {
    request: () =>
      http.ok('GET', '/svc/v1/collections', { token: heavyToken, query: { count: 'none' } }),
    compiled: compileListRequest({
      rules: collectionRules,
      cluster: deployment.cluster,
      caller: { ...caller, uuid: a.heavy.uuid },
      params: { count: 'none' },
    }),
  });
  const getTrace = await traced(() =>
    http.ok('GET', `/svc/v1/collections/${a.readable[0]}`, { token: userToken }),
  );
  const getStatement = getTrace.statements.find((s) => /FROM "collections"/.test(s.text));
  const getPlan = getStatement
    ? { ...(await explainBoth(client, getStatement)), name: getStatement.name }
    : null;
  const linkEvidence = [];
  for (const s of scenarios.filter((x) => x.id.startsWith('link-'))) {
    const spec = {
      'link-user-project': [userToken, a.otherUsers[0], a.project.uuid, 'can_read'],
      'link-role-collection': [userToken, a.roles[0], a.collection.uuid, 'can_read'],
      'link-user-role': [managerToken, a.otherUsers[0], a.role.uuid, 'can_write'],
      'link-public-sub': [publicToken, a.otherUsers[0], a.publicSub?.uuid, 'can_read'],
    }[s.id];
    const [token, tail, head, name] = spec;
    const create = await traced(() =>
      http.ok('POST', '/svc/v1/links', {
        token,
        json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: head } },
      }),
    );
    const del = await traced(() =>
      http.ok('DELETE', `/svc/v1/links/${create.result.body.uuid}`, { token }),
    );
    // Replayed in one rolled-back transaction: the create's statements, then the delete's.
    const replay = EXPLAIN
      ? await replayExplained(client, [...create.statements, ...del.statements])
      : [];
    linkEvidence.push({ id: s.id, label: s.label, create, del, replay });
  }
  const afterEvidence = await checksum();
  const stampEnd = codeStamp();
  if (before.n !== afterEvidence.n || before.sum !== afterEvidence.sum)
    throw new Error('materialized_permissions drifted during the EXPLAIN replays');

  // ---------------------------------------------------------------- output
  heading('permissions benchmark: data');
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
  out();
  out(
    table([
      ['permission links (tail -> head class)', 'name', 'count'],
      ...g.linkKinds.map((k) => [k.kind, k.name, fmtInt(k.n)]),
    ]),
  );
  out();
  out(permissionsLine(g.recompute));
  out(
    `rows per user: p50 ${a.stats.p50}, p90 ${a.stats.p90}, max ${a.stats.max} (${fmtInt(a.stats.users)} users hold rows)`,
  );
  out(
    `typical user ${a.typical.uuid}: ${a.typical.n} rows; readable collections: ${fmtInt(listEvidence.body.items_available)} of ${fmtInt(N.collections)}`,
  );
  out(`heavy user (p99) ${a.heavy.uuid}: ${a.heavy.n} rows`);

  if (EXPLAIN) {
    heading('permissions benchmark: EXPLAIN (ANALYZE, BUFFERS)');
    out(
      `Readable-collections list of the typical user (SQL identical to compileList + ownedPolicy: ${listEvidence.verified ? 'yes' : 'NO'})`,
    );
    const both = (title, e) => {
      if (!e) return;
      const c = e.name ? planCounts[e.name] : null;
      printPlan(
        `${title}: custom plan${c ? ` — the server's sessions ran it with ${c.generic} generic and ${c.custom} custom plans` : ''}`,
        e,
      );
      if (e.generic)
        printPlan(`${title}: generic plan (plan_cache_mode = force_generic_plan)`, e.generic);
    };
    both('list items query (the whole of count=none)', listEvidence.items);
    both('list count query (count=exact only)', listEvidence.count);
    both(`list items query, heavy user (p99 rows, ${a.heavy.n})`, heavyList.items);
    both('get by uuid with the permission check', getPlan);
    for (const l of linkEvidence) {
      out();
      out(`### ${l.id}: ${l.label}`);
      out(`Statements of one POST /links then DELETE /links/<uuid> (ms as the core saw them):`);
      for (const s of [
        ...l.create.statements.map((x) => ['create', x]),
        ...l.del.statements.map((x) => ['delete', x]),
      ]) {
        out(`  ${s[0]}  ${fmtMs(s[1].ms).padStart(7)} ms  ${statementLabel(s[1])}`);
      }
      // Each distinct statement once (the first time it ran), custom and, for the server's
      // prepared statements, generic plan.
      const seen = new Set();
      for (const e of l.replay) {
        if (seen.has(e.sql)) continue;
        seen.add(e.sql);
        printPlan(
          `${l.id}: ${statementLabel(e)} (traced ${fmtMs(e.tracedMs)} ms)${e.generic ? ', custom plan' : ''}`,
          e,
        );
        if (e.generic)
          printPlan(
            `${l.id}: ${statementLabel(e)}, generic plan (plan_cache_mode = force_generic_plan)`,
            e.generic,
          );
      }
    }
  }

  heading('permissions benchmark: where a link create + delete spends its database time');
  out(
    'One POST /links and its DELETE, traced in the core (ms per statement kind, summed; JIT = of which',
  );
  out('JIT compilation, from the EXPLAIN ANALYZE replay).');
  const kinds = ['levelOf', 'perm_subtree', 'perm_clear', 'perm_refill', 'other'];
  const kindOf = (label) =>
    label.startsWith('levelOf') ? 'levelOf' : kinds.includes(label) ? label : 'other';
  const split = [['scenario', 'HTTP ms', 'db ms', ...kinds.map((k) => `${k} ms`), 'JIT ms']];
  for (const l of linkEvidence) {
    const sums = Object.fromEntries(kinds.map((k) => [k, 0]));
    const statements = [...l.create.statements, ...l.del.statements].filter(
      (x) => !/^\s*(BEGIN|COMMIT)/.test(x.text),
    );
    for (const x of statements) sums[kindOf(statementLabel(x))] += x.ms ?? 0;
    const db = statements.reduce((n, x) => n + (x.ms ?? 0), 0);
    const jit = l.replay.reduce((n, e) => n + (e.jitMs ?? 0), 0);
    split.push([
      l.id,
      fmtMs(l.create.result.ms + l.del.result.ms),
      fmtMs(db),
      ...kinds.map((k) => fmtMs(sums[k])),
      EXPLAIN ? fmtMs(jit) : '-',
    ]);
  }
  out(table(split));

  heading("permissions benchmark: plans the server's sessions used (prepared statements)");
  out('After five executions a session may switch a prepared statement to its generic plan.');
  const planRows = [
    [
      'statement',
      'generic plans',
      'custom plans',
      'sessions',
      'EXPLAIN custom ms',
      'EXPLAIN generic ms',
    ],
  ];
  const seenNames = new Set();
  const addPlanRow = (label, e) => {
    if (!e?.name || seenNames.has(e.name)) return;
    seenNames.add(e.name);
    const c = planCounts[e.name] ?? { generic: 0, custom: 0, sessions: 0 };
    planRows.push([
      label,
      c.generic,
      c.custom,
      c.sessions,
      fmtMs(e.executionMs),
      e.generic ? fmtMs(e.generic.executionMs) : '',
    ]);
  };
  addPlanRow('list items (typical user)', listEvidence.items);
  addPlanRow('list count (typical user)', listEvidence.count);
  addPlanRow('get by uuid', getPlan);
  for (const l of linkEvidence)
    for (const e of l.replay) addPlanRow(`${l.id}: ${statementLabel(e)}`, e);
  out(table(planRows));

  heading('permissions benchmark: latency through the gateway (sequential)');
  const base = results['get-root'].p50;
  const rows = [
    ['scenario', 'p50 ms', 'p90 ms', 'p99 ms', 'n', 'round p50s', 'x base', 'target', 'result'],
  ];
  const summary = {};
  for (const [id, st] of Object.entries(results)) {
    const s = scenarios.find((x) => id === x.id || id.startsWith(`${x.id}.`));
    const target = s.target;
    const result = passFail(st.p50, target);
    rows.push([
      id,
      fmtMs(st.p50),
      fmtMs(st.p90),
      fmtMs(st.p99),
      st.n,
      roundsText(st),
      (st.p50 / base).toFixed(1),
      target ? `<= ${target}` : '',
      result,
    ]);
    summary[id] = {
      label: s.label,
      p50: r3(st.p50),
      p90: r3(st.p90),
      p99: r3(st.p99),
      n: st.n,
      roundP50s: st.roundP50s,
      target: target ?? null,
      pass: result === '' ? null : result === 'PASS',
    };
  }
  out(table(rows));
  out();
  out(
    'Targets (p50): readable-collections first page <= 20 ms (judged on both the default count=exact',
  );
  out('and count=none), get by uuid <= 3 ms, permission link create and delete <= 50 ms each.');
  out('"x base" = p50 / p50 of a root GET by uuid (the stack floor on this machine right now).');
  out(
    `Load: ${load.cpus} CPUs; 1-min load average ${load.loadavgStart[0]} at start, ${load.loadavgEnd[0]} at end; machine CPU busy per round: ${load.rounds.map((r) => (r.cpuBusy === null ? '?' : Math.round(r.cpuBusy * 100) + '%')).join(', ')}`,
  );
  out(
    `materialized_permissions unchanged after ${fmtInt(
      Object.entries(results)
        .filter(([k]) => k.endsWith('.create'))
        .reduce((n, [, st]) => n + st.n, 0),
    )} create+delete pairs (count and checksum): yes`,
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
  jsonLine({
    bench: 'permissions',
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
    rowsPerUser: a.stats,
    typicalUser: {
      uuid: a.typical.uuid,
      rows: a.typical.n,
      readableCollections: listEvidence.body.items_available,
    },
    heavyUser: { uuid: a.heavy.uuid, rows: a.heavy.n },
    baselineP50: r3(base),
    scenarios: summary,
    plans: {
      listItems: listEvidence.items && {
        indexes: listEvidence.items.indexes,
        seqScans: listEvidence.items.seqScans,
        executionMs: listEvidence.items.executionMs,
        jitMs: listEvidence.items.jitMs,
      },
      listCount: listEvidence.count && {
        indexes: listEvidence.count.indexes,
        seqScans: listEvidence.count.seqScans,
        executionMs: listEvidence.count.executionMs,
        jitMs: listEvidence.count.jitMs,
      },
      get: getPlan && {
        indexes: getPlan.indexes,
        executionMs: getPlan.executionMs,
        jitMs: getPlan.jitMs,
        genericExecutionMs: getPlan.generic?.executionMs ?? null,
      },
      listItemsGenericMs: listEvidence.items?.generic?.executionMs ?? null,
      listCountGenericMs: listEvidence.count?.generic?.executionMs ?? null,
      serverPlans: Object.fromEntries(
        planRows.slice(1).map((r) => [r[0], { generic: r[1], custom: r[2] }]),
      ),
      // Per link scenario (one create + one delete, replayed): time by statement kind.
      links: Object.fromEntries(linkEvidence.map((l) => [l.id, byStatement(l.replay)])),
    },
    load,
    sqlVerified: listEvidence.verified,
    targetsMissed: failed,
  });
  return STRICT && failed.length > 0 ? 2 : 0;
}

/** Replayed statements grouped by kind: count, ms as traced in the server, EXPLAIN ms, JIT ms. */
function byStatement(entries) {
  const out = {};
  for (const e of entries) {
    const k = statementLabel(e);
    out[k] ??= { n: 0, tracedMs: 0, explainMs: 0, jitMs: 0 };
    out[k].n += 1;
    out[k].tracedMs += e.tracedMs ?? 0;
    out[k].explainMs += e.executionMs ?? 0;
    out[k].jitMs += e.jitMs ?? 0;
  }
  for (const v of Object.values(out))
    for (const f of ['tracedMs', 'explainMs', 'jitMs']) v[f] = Number(v[f].toFixed(2));
  return out;
}

const md5 = (s) => createHash('md5').update(s).digest('hex');
const r3 = (x) => (x === null ? null : Number(x.toFixed(3)));

runMain(main);
