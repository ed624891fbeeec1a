// Benchmark of the web console in Chromium (console issue): how long the project page of a
// 100,000-item project takes to show its first page, beside a project of 10, and how much
// compressed JavaScript the first load of the console transfers.
//
//   node tests/bench/console.mjs       (after `pnpm build`; `pnpm bench` runs it via all.mjs)
//   BENCH_SCALE=0.1 node tests/bench/console.mjs     smaller project
//
// A fresh database (svc_bench_console_<random>, dropped at the end). Through the API: a user
// with a token, a project "Big" and a project "Small" with 10 collections. "Big" gets 100,000
// items at scale 1 with set-based SQL (5 % subprojects, 95 % collections). VACUUM ANALYZE. Then
// Debian's chromium (playwright-core, headless) opens the console signed in as that user, and
// for each project, BENCH_REQUESTS times (default 15, after 2 warm-up rounds):
// - "page load": a fresh navigation to /projects/<uuid> (scripts cached, as on a second visit)
//   until the first row of the contents table is in the page, read from the page's own clock
//   (performance.now() since navigation start);
// - "in-app": a click on the project's link in the sidebar-less breadcrumbs of a child page,
//   i.e. a client-side route change, until the first row shows.
// Target: the first page of "Big" in ≤ 300 ms (p50, page load). The first load's JavaScript is
// the sum of the encoded (brotli) sizes of every script the cold page fetched; target ≤ 300 KB.
//
// Environment: BENCH_SCALE (default 1), BENCH_REQUESTS, BENCH_STRICT=1 (exit 2 on a missed
// target), DATABASE_URL (the PostgreSQL server).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { ROOT, fmtInt, fmtMs, makeLog, numberEnv } from './lib/common.mjs';
import { connect, createBenchDatabase, runMain } from './lib/database.mjs';
import { Http, benchUser, startBenchDeployment } from './lib/deployment.mjs';
import { heading, jsonLine, out, passFail, table } from './lib/report.mjs';
import { stats } from './lib/timing.mjs';

const log = makeLog('console');
const C = 'bnch3';
const SCALE = numberEnv('BENCH_SCALE', 1);
const REQUESTS = numberEnv('BENCH_REQUESTS', 15, { integer: true, min: 1 });
const ITEMS = Math.max(1000, Math.round(100_000 * SCALE));
const TARGETS = { firstPageMs: 300, firstLoadKiB: 300 };
// Debian's chromium and the flags the browser tests use (tests/harness/chromium.json)
const { executable: CHROMIUM, args: CHROMIUM_ARGS } = JSON.parse(
  readFileSync(join(ROOT, 'tests/harness/chromium.json'), 'utf8'),
);
const { chromium } = createRequire(join(ROOT, 'tests/package.json'))('playwright-core');

const uuid = (infix, seed) =>
  `'${C}-${infix}-' || substr(translate(lower(encode(decode(md5(${seed}), 'hex'), 'base64')), '+/', 'xy'), 1, 15)`;

async function seed(db, project, owner) {
  const t0 = performance.now();
  const groups = Math.round(ITEMS * 0.05);
  const at = (i) => `now() - make_interval(secs => ${i})`;
  await db.query('SET synchronous_commit = off');
  await db.query(
    `INSERT INTO groups (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, group_class)
     SELECT ${uuid('j7d0g', `'bg' || i`)}, $1, ${at('i')}, ${at('i')}, $2, 'sub ' || i, 'project'
       FROM generate_series(1, ${groups}) i`,
    [project, owner],
  );
  await db.query(
    `INSERT INTO collections (uuid, owner_uuid, created_at, modified_at, modified_by_user_uuid, name, portable_data_hash)
     SELECT ${uuid('4zz18', `'bc' || i`)}, $1, ${at('i')}, ${at('i')}, $2, 'collection ' || i,
            'd41d8cd98f00b204e9800998ecf8427e+0'
       FROM generate_series(1, ${ITEMS - groups}) i`,
    [project, owner],
  );
  await db.query('VACUUM ANALYZE');
  log(`seeded ${fmtInt(ITEMS)} items in ${fmtMs(performance.now() - t0)}`);
}

async function setUp(http, root, db) {
  const user = await benchUser(http, root, { email: 'console@example.com', first_name: 'Bench' });
  const token = user.token;
  const project = async (name) =>
    (
      await http.ok('POST', '/svc/v1/groups', {
        token,
        json: { group: { name, group_class: 'project' } },
      })
    ).body.uuid;
  const big = await project('Big');
  const small = await project('Small');
  for (let i = 0; i < 10; i++)
    await http.ok('POST', '/svc/v1/collections', {
      token,
      json: { collection: { name: `small ${i}`, owner_uuid: small } },
    });
  await seed(db, big, user.uuid);
  return { token, big, small };
}

const FIRST_ROW = 'table[aria-label="Contents"] tbody tr';

/** A fresh navigation to the project page until its first row shows (the page's own clock). */
async function pageLoad(page, project) {
  await page.goto(`/projects/${project}`, { waitUntil: 'commit' });
  await page.waitForSelector(FIRST_ROW);
  return page.evaluate(() => performance.now());
}

/** A client-side route change from a child's page to the project, until its first row shows. */
async function inApp(page, project, child) {
  await page.goto(`/collections/${child}`);
  await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link').last().waitFor();
  const link = page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link').last();
  const started = await page.evaluate(() => performance.now());
  await link.click();
  await page.waitForSelector(FIRST_ROW);
  return (await page.evaluate(() => performance.now())) - started;
}

/** Encoded bytes of every script a cold first load of the console fetched. */
async function firstLoadScripts(browser, url, token) {
  const context = await browser.newContext({ baseURL: url });
  await context.addInitScript({
    content: `localStorage.setItem('svc.console.token', ${JSON.stringify(token)})`,
  });
  const page = await context.newPage();
  await page.goto('/shared');
  await page.waitForLoadState('networkidle');
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'))
      .map((e) => ({ name: e.name, bytes: e.encodedBodySize })),
  );
  await context.close();
  return scripts;
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write("[console] needs Debian's chromium (apt-get install chromium)\n");
    return 1;
  }
  const { url: dbUrl } = await createBenchDatabase('svc_bench_console_');
  const deployment = await startBenchDeployment({ clusterId: C, databaseUrl: dbUrl });
  const http = new Http(deployment.url);
  const db = await connect(dbUrl);
  const { token, big, small } = await setUp(http, deployment.rootToken, db);
  const child = async (project) =>
    (
      await http.ok('GET', '/svc/v1/collections', {
        token,
        query: { filters: [['owner_uuid', '=', project]], limit: 1 },
      })
    ).body.items[0].uuid;
  const children = { [big]: await child(big), [small]: await child(small) };

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  try {
    const scripts = await firstLoadScripts(browser, deployment.url, token);
    const firstLoadKiB = scripts.reduce((n, s) => n + s.bytes, 0) / 1024;
    const context = await browser.newContext({ baseURL: deployment.url });
    await context.addInitScript({
      content: `localStorage.setItem('svc.console.token', ${JSON.stringify(token)})`,
    });
    const page = await context.newPage();
    const results = {};
    for (const [name, project] of [
      [`${fmtInt(ITEMS)} items`, big],
      ['10 items', small],
    ]) {
      for (const [how, fn] of [
        ['page load', pageLoad],
        ['in-app', inApp],
      ]) {
        for (let i = 0; i < 2; i++) await fn(page, project, children[project]);
        const ms = [];
        for (let i = 0; i < REQUESTS; i++) ms.push(await fn(page, project, children[project]));
        const s = stats(ms);
        const target = project === big && how === 'page load' ? TARGETS.firstPageMs : null;
        results[`${name}, ${how}`] = {
          p50: s.p50,
          p90: s.p90,
          n: s.n,
          target,
          pass: passFail(s.p50, target),
        };
        log(`${name}, ${how}: p50 ${fmtMs(s.p50)}`);
      }
    }
    heading(`web console: first page of a ${fmtInt(ITEMS)}-item project in Chromium`);
    out(
      table([
        ['scenario', 'p50', 'p90', 'n', 'target p50', ''],
        ...Object.entries(results).map(([n, r]) => [
          n,
          fmtMs(r.p50),
          fmtMs(r.p90),
          String(r.n),
          r.target === null ? '—' : `≤ ${r.target} ms`,
          r.pass,
        ]),
      ]),
    );
    const ratio =
      results[`${fmtInt(ITEMS)} items, page load`].p50 / results['10 items, page load'].p50;
    out();
    out(`big / small (page load, p50): ${ratio.toFixed(2)}×`);
    out(
      `first load: ${scripts.length} scripts, ${firstLoadKiB.toFixed(1)} KiB of compressed JavaScript ` +
        `(target ≤ ${TARGETS.firstLoadKiB} KiB) ${passFail(firstLoadKiB, TARGETS.firstLoadKiB)}`,
    );
    out(`load average (1 min) at the end: ${loadavg()[0].toFixed(2)} on ${cpus().length} CPUs`);
    jsonLine({
      bench: 'console',
      scale: SCALE,
      items: ITEMS,
      results,
      ratio,
      firstLoadKiB,
      load1: loadavg()[0],
    });
    const missed =
      Object.values(results).some((r) => r.pass === 'FAIL') || firstLoadKiB > TARGETS.firstLoadKiB;
    return missed && /^(1|true|yes)$/i.test(process.env.BENCH_STRICT ?? '') ? 2 : 0;
  } finally {
    await browser.close();
  }
}

await runMain(main);
