// A throw-away PostgreSQL database per benchmark run, dropped at the end — also on failure,
// SIGINT and SIGTERM — and the cleanup registry the benchmarks share.
import { dist, makeLog, pg, randomAlnum } from './common.mjs';

const log = makeLog('bench');

/** The server part of DATABASE_URL (default postgres://postgres@127.0.0.1:5432), on `postgres`. */
export function adminUrl() {
  const url = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = '/postgres';
  url.search = '';
  return url;
}

export async function adminQuery(text, values = []) {
  const client = new pg.Client({
    connectionString: adminUrl().toString(),
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------- cleanup

const cleanups = [];
let cleaning = null;

/** Runs at the end, in reverse order of registration (deployment before database). */
export function onCleanup(fn) {
  cleanups.push(fn);
}

export function runCleanup() {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const fn = cleanups.pop();
      try {
        await fn();
      } catch (e) {
        log(`cleanup: ${e?.message ?? e}`);
      }
    }
  })();
  return cleaning;
}

let installed = false;
/** SIGINT / SIGTERM: clean up, then exit 130 / 143. */
export function installSignalHandlers() {
  if (installed) return;
  installed = true;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    // `on`, not `once`: a second signal (e.g. the terminal's and a parent's) must not kill the
    // process before its database is dropped.
    process.on(signal, () => {
      if (cleaning) return;
      log(`${signal}: cleaning up`);
      const force = setTimeout(() => process.exit(code), 30_000);
      force.unref();
      runCleanup().finally(() => process.exit(code));
    });
  }
}

/**
 * Runs `main`, then the cleanups; exits 1 (after cleaning up) when it throws. With
 * BENCH_KEEP_DB=1 the database is kept for experiments and its URL printed.
 */
export async function runMain(main) {
  installSignalHandlers();
  let code;
  try {
    code = (await main()) ?? 0;
  } catch (e) {
    log(`FAILED: ${e?.stack ?? e}`);
    code = 1;
  }
  await runCleanup();
  process.exit(code);
}

// ---------------------------------------------------------------- the database

/**
 * A fresh database `<prefix><random>` with the migrations applied (migrate + openDatabase of
 * apps/core). Registered for dropping unless BENCH_KEEP_DB=1.
 */
export async function createBenchDatabase(prefix) {
  const name = `${prefix}${randomAlnum(8)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const keep = /^(1|true|yes)$/i.test(process.env.BENCH_KEEP_DB ?? '');
  onCleanup(async () => {
    if (keep) {
      log(
        `BENCH_KEEP_DB: kept database ${name} (${url}); drop it with: DROP DATABASE ${name} WITH (FORCE)`,
      );
      return;
    }
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    log(`dropped database ${name}`);
  });
  // BENCH_AUTO_EXPLAIN_MS=<ms>: PostgreSQL logs the plan (EXPLAIN ANALYZE) of every statement of
  // this database slower than that, as it ran in the server's own sessions (auto_explain).
  const autoExplain = process.env.BENCH_AUTO_EXPLAIN_MS;
  if (autoExplain) {
    for (const [k, v] of [
      ['session_preload_libraries', 'auto_explain'],
      ['auto_explain.log_min_duration', String(Number(autoExplain))],
      ['auto_explain.log_analyze', 'on'],
      ['auto_explain.log_buffers', 'on'],
      ['auto_explain.log_nested_statements', 'on'],
    ]) {
      await adminQuery(`ALTER DATABASE ${name} SET ${k} = '${v}'`);
    }
    log(
      `auto_explain on for ${name}: plans of statements over ${autoExplain} ms go to the PostgreSQL server log`,
    );
  }
  const { migrate, openDatabase } = dist('apps/core/dist/index.js');
  const opened = await openDatabase(url.toString());
  try {
    const applied = await migrate(opened.db);
    log(`database ${name}: ${applied.length} migrations applied`);
  } finally {
    await opened.db.close();
  }
  return { name, url: url.toString() };
}

/** A plain node-postgres client on the bench database (generation, EXPLAIN). */
export async function connect(url, options = {}) {
  const client = new pg.Client({
    connectionString: url,
    // The core's own session settings, so EXPLAIN shows the plans its sessions get.
    options: dist('apps/core/dist/db/pg-db.js').SESSION_OPTIONS,
    ...options,
  });
  await client.connect();
  onCleanup(() => client.end());
  return client;
}

/**
 * BENCH_DATABASE=<name>: measure an existing bench database (kept with BENCH_KEEP_DB=1) again,
 * without generating or dropping it — e.g. after changing a setting or an index on that copy.
 */
export function existingDatabase(name) {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`BENCH_DATABASE: bad database name ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  log(`reusing database ${name} (BENCH_DATABASE): no generation, not dropped`);
  return { name, url: url.toString(), reused: true };
}
