// Shared helpers of the large-dataset benchmarks (tests/bench/lists.mjs, permissions.mjs):
// where the repository is, the built modules, environment knobs, logging.
import { randomInt } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

// Third-party modules resolve from the tests package (it depends on pg, undici and pino), the
// same copies the built apps load (pnpm links one version of each).
const requireFromTests = createRequire(join(ROOT, 'tests/package.json'));
export const pg = requireFromTests('pg');
export const undici = requireFromTests('undici');
export const pino = requireFromTests('pino');

/** A built module of the monorepo (`pnpm build` first), e.g. `apps/core/dist/index.js`. */
export function dist(relativePath) {
  const file = join(ROOT, relativePath);
  if (!existsSync(file)) {
    process.stderr.write(`[bench] ${relativePath} is missing: run \`pnpm build\` first\n`);
    process.exit(1);
  }
  return requireFromTests(file);
}

export const makeLog = (tag) => (line) => process.stderr.write(`[${tag}] ${line}\n`);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';
export const randomAlnum = (n) =>
  Array.from({ length: n }, () => ALNUM[randomInt(ALNUM.length)]).join('');

/** A positive number from the environment (or the fallback), validated. */
export function numberEnv(name, fallback, { integer = false, min = 0 } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= min || (integer && !Number.isInteger(n))) {
    throw new Error(`${name} must be a${integer ? 'n integer' : ' number'} > ${min}, got "${raw}"`);
  }
  return n;
}

export const flagEnv = (name) => /^(1|true|yes)$/i.test(process.env[name] ?? '');

/** Milliseconds since `t0` (performance.now()), rounded for printing. */
export const since = (t0) => performance.now() - t0;

export const fmtMs = (ms) =>
  ms === null || ms === undefined || Number.isNaN(ms)
    ? '-'
    : ms >= 100
      ? ms.toFixed(0)
      : ms >= 10
        ? ms.toFixed(1)
        : ms.toFixed(2);

export const fmtSeconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export const fmtInt = (n) => Number(n).toLocaleString('en-US');

export const load1 = () => Number(loadavg()[0].toFixed(2));

/**
 * Which code is measured: the git commit (read only) and the newest file under apps/*\/dist and
 * packages/*\/dist. Other people may rebuild while a benchmark runs; compare the stamps taken at
 * the start and the end (codeChanged) to know whether a run mixed two builds.
 */
export function codeStamp() {
  let head;
  try {
    head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
  } catch {
    head = null;
  }
  let newest = 0;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const top of ['apps', 'packages']) {
    for (const pkg of readdirSync(join(ROOT, top))) {
      const d = join(ROOT, top, pkg, 'dist');
      if (existsSync(d)) walk(d);
    }
  }
  return { head, newestDist: new Date(newest).toISOString() };
}

export const codeChanged = (a, b) => a.head !== b.head || a.newestDist !== b.newestDist;

/**
 * The settings both large-dataset benchmarks read from the environment (see their headers), and
 * `scaled(n, min)`: n at BENCH_SCALE, at least min.
 */
export function datasetBenchSettings() {
  const scale = numberEnv('BENCH_SCALE', 1);
  return {
    SCALE: scale,
    REQUESTS: numberEnv('BENCH_REQUESTS', 120, { integer: true }),
    ROUNDS: numberEnv('BENCH_ROUNDS', 3, { integer: true }),
    WARMUP: numberEnv('BENCH_WARMUP', 10, { integer: true, min: -1 }),
    EXPLAIN: process.env.BENCH_EXPLAIN !== '0',
    BUDGET_MS: numberEnv('BENCH_SCENARIO_SECONDS', 60) * 1000,
    RECOMPUTE_TIMEOUT_MS: numberEnv('BENCH_RECOMPUTE_TIMEOUT', 600) * 1000,
    STRICT: flagEnv('BENCH_STRICT'),
    scaled: (n, min = 1) => Math.max(min, Math.round(n * scale)),
  };
}
