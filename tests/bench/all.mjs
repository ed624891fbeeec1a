// Every benchmark in sequence, each as a child process with this process's environment:
// tests/bench/run.mjs (gateway/core throughput), lists.mjs (filter language on 1M collections),
// permissions.mjs (permission model on 2M collections), storage.mjs (block upload/download
// against cp, server memory under parallel uploads, garbage collection of 1M blocks) and
// containers.mjs (commit and reuse on 1M containers), execution.mjs (containers running on the
// local backend: commit → Running/Final, runner RSS), federation.mjs (federated lists and
// sibling GETs over three clusters), group-trash.mjs (trash and untrash of a project with
// 100,000 descendants), console.mjs (the web console in Chromium: first page of a 100,000-item
// project, compressed JavaScript of the first load), fair-share.mjs (another user's GETs while
// one token sends pathological lists, load from wrk); optional, only with --only: contents.mjs
// (groups.contents on a 1M-item project and a 10,000-project tree). Intended as the root
// `pnpm bench` script: `pnpm build && node tests/bench/all.mjs`.
//
//   node tests/bench/all.mjs [--only=run,lists,permissions] [--continue]
//
// Output of each benchmark goes straight through. At the end: one line per benchmark with its
// exit status and duration. The exit status is non-zero if any benchmark failed (by default the
// remaining ones still run; BENCH_FAIL_FAST=1 stops at the first failure). Arguments other than
// --only are passed to every benchmark (e.g. --quick for run.mjs). BENCH_SCALE etc. apply to
// lists.mjs, permissions.mjs, storage.mjs and containers.mjs (see their headers).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const BENCHES = [
  { id: 'run', file: 'run.mjs' },
  { id: 'lists', file: 'lists.mjs' },
  { id: 'permissions', file: 'permissions.mjs' },
  { id: 'storage', file: 'storage.mjs' },
  { id: 'containers', file: 'containers.mjs' },
  { id: 'execution', file: 'execution.mjs' },
  { id: 'federation', file: 'federation.mjs' },
  { id: 'group-trash', file: 'group-trash.mjs' },
  { id: 'console', file: 'console.mjs' },
  { id: 'fair-share', file: 'fair-share.mjs' },
  // Optional: run with --only=contents (1M items seeded; several minutes).
  { id: 'contents', file: 'contents.mjs', optional: true },
];

const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg
  ? onlyArg
      .slice('--only='.length)
      .split(',')
      .map((s) => s.trim())
  : null;
const passThrough = process.argv.slice(2).filter((a) => !a.startsWith('--only='));
const failFast = /^(1|true|yes)$/i.test(process.env.BENCH_FAIL_FAST ?? '');
const log = (line) => process.stderr.write(`[bench:all] ${line}\n`);

let current = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  // The child gets the signal too (same process group from a terminal); forward it otherwise,
  // and let it clean up (drop its database) before we exit.
  process.on(signal, () => {
    log(`${signal}: waiting for ${current?.id ?? 'nothing'} to clean up`);
    if (current) current.proc.kill(signal);
    else process.exit(130);
  });
}

function runOne(bench) {
  return new Promise((resolve) => {
    const started = Date.now();
    const proc = spawn(process.execPath, [join(HERE, bench.file), ...passThrough], {
      stdio: 'inherit',
      env: process.env,
    });
    current = { id: bench.id, proc };
    proc.on('error', (err) =>
      resolve({ ...bench, code: null, signal: null, error: err.message, ms: Date.now() - started }),
    );
    proc.on('exit', (code, signal) =>
      resolve({ ...bench, code, signal, ms: Date.now() - started }),
    );
  });
}

const unknown = (only ?? []).filter((id) => !BENCHES.some((b) => b.id === id));
if (unknown.length > 0) {
  log(
    `unknown benchmark(s): ${unknown.join(', ')} (known: ${BENCHES.map((b) => b.id).join(', ')})`,
  );
  process.exit(2);
}

const results = [];
for (const bench of BENCHES.filter((b) => (only ? only.includes(b.id) : !b.optional))) {
  log(`=== ${bench.file}`);
  const r = await runOne(bench);
  current = null;
  results.push(r);
  if (r.signal === 'SIGINT' || r.signal === 'SIGTERM' || r.code === 130 || r.code === 143) break;
  if (failFast && r.code !== 0) break;
}

log('summary:');
for (const r of results) {
  const status = r.error
    ? `error: ${r.error}`
    : r.signal
      ? `killed by ${r.signal}`
      : `exit ${r.code}`;
  log(`  ${r.id.padEnd(12)} ${status.padEnd(16)} ${(r.ms / 1000).toFixed(0)} s`);
}
const failed = results.filter((r) => r.code !== 0);
process.exit(failed.length > 0 || results.length === 0 ? 1 : 0);
