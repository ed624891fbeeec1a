// What SQL the server runs, and how PostgreSQL executes it.
//
// The trace records every statement the in-process core sends through node-postgres while it is
// on (the same `pg` module instance: pnpm links one copy), with its values and its duration as
// the core saw it (queueing on the session included) — log_min_duration_statement=0, without
// the server log. `explain` runs EXPLAIN (ANALYZE, BUFFERS) of one statement; `replayExplained`
// replays a traced request's statements in order, each under EXPLAIN ANALYZE, in one
// transaction that is rolled back (so writes and the permission refresh are explained exactly as
// they ran, and leave nothing behind).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pg, ROOT } from './common.mjs';

const trace = { on: false, entries: [], ignored: new WeakSet() };

const original = pg.Client.prototype.query;
pg.Client.prototype.query = function tracedQuery(config, values, callback) {
  if (!trace.on || trace.ignored.has(this) || (config && typeof config.submit === 'function')) {
    return original.call(this, config, values, callback);
  }
  const entry = {
    text: typeof config === 'string' ? config : config?.text,
    values: Array.isArray(values) ? values : (config?.values ?? []),
    name: config?.name ?? null,
    ms: null,
  };
  trace.entries.push(entry);
  const t0 = performance.now();
  const done = () => {
    entry.ms = performance.now() - t0;
  };
  if (typeof values === 'function') {
    return original.call(this, config, (err, res) => {
      done();
      values(err, res);
    });
  }
  if (typeof callback === 'function') {
    return original.call(this, config, values, (err, res) => {
      done();
      callback(err, res);
    });
  }
  const p = original.call(this, config, values);
  p?.then?.(done, done);
  return p;
};

/** Clients of the benchmark itself (generation, EXPLAIN) are never traced. */
export const untraced = (client) => {
  trace.ignored.add(client);
  return client;
};

/** Runs `fn` with the trace on; returns its result and the statements the server ran. */
export async function traced(fn) {
  trace.entries = [];
  trace.on = true;
  try {
    const result = await fn();
    return { result, statements: trace.entries.filter((e) => e.text) };
  } finally {
    trace.on = false;
  }
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();
const explainable = (text) => /^\s*(\(?\s*SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(text);
const control = (text) => /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(text);

/** Index names, sequential scans and the execution time, read from a text plan. */
export function planSummary(planText) {
  const indexes = new Set();
  const seqScans = new Set();
  for (const m of planText.matchAll(/Index (?:Only )?Scan(?: Backward)? using (\S+)/g))
    indexes.add(m[1]);
  for (const m of planText.matchAll(/Bitmap Index Scan on (\S+)/g)) indexes.add(m[1]);
  for (const m of planText.matchAll(/Seq Scan on (\S+)/g)) seqScans.add(m[1]);
  const exec = /Execution Time: ([\d.]+) ms/.exec(planText);
  const plan = /Planning Time: ([\d.]+) ms/.exec(planText);
  const jit = /JIT:[\s\S]*?Timing:.*Total ([\d.]+) ms/.exec(planText);
  return {
    indexes: [...indexes],
    seqScans: [...seqScans],
    executionMs: exec ? Number(exec[1]) : null,
    planningMs: plan ? Number(plan[1]) : null,
    /** Time spent compiling the plan with JIT (part of the execution time), 0 without JIT. */
    jitMs: jit ? Number(jit[1]) : 0,
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of one statement ({text, values}). */
export async function explain(client, { text, values = [] }, { analyze = true } = {}) {
  const opts = analyze ? 'ANALYZE, BUFFERS' : 'COSTS';
  const { rows } = await client.query({ text: `EXPLAIN (${opts}) ${text}`, values });
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  return { sql: oneLine(text), values, plan, ...planSummary(plan) };
}

const { prepareValue } = createRequire(join(ROOT, 'tests/package.json'))('pg/lib/utils');
const literal = (client, v) =>
  v === null || v === undefined
    ? 'NULL'
    : typeof v === 'number'
      ? String(v)
      : client.escapeLiteral(String(prepareValue(v)));

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the generic plan of a statement (what a named prepared statement
 * of the server may switch to after five executions): PREPARE with plan_cache_mode =
 * force_generic_plan, EXECUTE with the values as literals. Inside a transaction.
 */
let genericSeq = 0;
export async function explainGeneric(client, { text, values = [] }) {
  const name = `bench_generic_${++genericSeq}`;
  // In a savepoint, so that a failure leaves the surrounding transaction usable.
  await client.query('SAVEPOINT bench_generic');
  try {
    await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE ${name} AS ${text}`);
    const { rows } = await client.query(
      `EXPLAIN (ANALYZE, BUFFERS) EXECUTE ${name}${values.length ? `(${values.map((v) => literal(client, v)).join(', ')})` : ''}`,
    );
    await client.query(`DEALLOCATE ${name}`);
    await client.query('SET LOCAL plan_cache_mode = auto');
    await client.query('RELEASE SAVEPOINT bench_generic');
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    return { sql: oneLine(text), values, plan, ...planSummary(plan) };
  } catch (e) {
    await client.query('ROLLBACK TO SAVEPOINT bench_generic');
    await client.query(`DEALLOCATE ${name}`).catch(() => undefined);
    const plan = `(generic plan not available: ${e.message})`;
    return { sql: oneLine(text), values, plan, ...planSummary(plan), error: e.message };
  }
}

/**
 * Replays statements in order in one transaction, each under EXPLAIN (ANALYZE, BUFFERS) when
 * PostgreSQL can explain it, then rolls back. Named statements (prepared once per session by
 * the server) are explained twice: with a custom plan in a savepoint that is rolled back, then
 * with the generic plan. Returns one entry per replayed statement.
 */
export async function replayExplained(client, statements) {
  const out = [];
  await client.query('BEGIN');
  try {
    for (const s of statements) {
      if (control(s.text)) continue;
      if (!explainable(s.text)) {
        await client.query({ text: s.text, values: s.values });
        continue;
      }
      if (!s.name) {
        out.push({ name: s.name, tracedMs: s.ms, ...(await explain(client, s)) });
        continue;
      }
      await client.query('SAVEPOINT bench_custom');
      const custom = await explain(client, s);
      await client.query('ROLLBACK TO SAVEPOINT bench_custom');
      const generic = await explainGeneric(client, s);
      out.push({ name: s.name, tracedMs: s.ms, ...custom, generic });
    }
  } finally {
    await client.query('ROLLBACK');
  }
  return out;
}

const LABELS = [
  [
    /^SELECT o\.uuid, greatest\(/,
    "levelOf: the caller's level on an object (permissions/level-of.ts)",
  ],
  [/^SELECT 1 FROM groups WHERE uuid = \$1 AND group_class = 'role'/, 'isReadable: is it a role'],
  [/^SELECT group_class FROM groups WHERE uuid = \$1/, 'link rules: class of the tail group'],
  [
    /^SELECT uuid, name FROM links WHERE link_class = 'permission' AND tail_uuid = \$1/,
    'link rules: existing level link of the pair',
  ],
  [/^INSERT INTO "links"/, 'insert the link'],
  [
    /^SELECT "uuid",.* FROM "links" WHERE "uuid" = \$1 AND/,
    'findVisible: the link, within visibility, FOR UPDATE',
  ],
  [
    /^SELECT "uuid",.* FROM "collections" WHERE "uuid" = \$1 AND/,
    'findVisible: the collection, within visibility',
  ],
  [/^DELETE FROM "links" WHERE "uuid" = \$1/, 'delete the link'],
  [
    /^DELETE FROM links WHERE head_uuid = \$1 OR tail_uuid = \$1/,
    'deleteLinksOf: links to/from the deleted link',
  ],
  [/^SELECT count\(\*\) AS n FROM/, 'list: count query'],
  [/^SELECT .* FROM "collections" WHERE/, 'list: items query'],
];

/** The core names every statement it prepares; names like s<40 hex> are derived from the text. */
const autoName = (name) => /^s[0-9a-f]{20}$/.test(name ?? '');

/** A short label for a traced statement: a known role, its given name, else its first words. */
export function statementLabel(s) {
  const text = oneLine(s.text ?? s.sql ?? '');
  const known = LABELS.find(([re]) => re.test(text));
  if (s.name && !autoName(s.name) && !known) return s.name;
  if (s.name && !autoName(s.name)) return s.name;
  return known ? known[1] : text.slice(0, 70) + (text.length > 70 ? '…' : '');
}

/**
 * EXPLAIN of a statement as the server may run it: the custom plan (its values), and when the
 * server prepares it (a name), the generic plan too — after five executions a session may
 * switch to it. Both in a transaction that is rolled back.
 */
export async function explainBoth(client, s) {
  const custom = await explain(client, s);
  if (!s.name) return custom;
  await client.query('BEGIN');
  try {
    return { ...custom, generic: await explainGeneric(client, s) };
  } finally {
    await client.query('ROLLBACK');
  }
}

/**
 * Which plans the server's sessions used for its prepared statements: every session of the
 * core's pool is held at once (a barrier), and each one's pg_prepared_statements counters are
 * read (PostgreSQL 14+). Returns name → {generic, custom, sessions}.
 */
export async function preparedPlanCounts(coreDb, sessions = 10) {
  let open;
  const gate = new Promise((r) => (open = r));
  let entered = 0;
  const rows = [];
  await Promise.all(
    Array.from({ length: sessions }, () =>
      coreDb.transaction(async (tx) => {
        entered += 1;
        if (entered === sessions) open();
        await Promise.race([gate, new Promise((r) => setTimeout(r, 3000))]);
        const r = await tx.query({
          text: 'SELECT pg_backend_pid() AS pid, name, generic_plans, custom_plans FROM pg_prepared_statements',
          values: [],
        });
        rows.push(...r.rows);
      }),
    ),
  );
  const out = {};
  for (const r of rows) {
    out[r.name] ??= { generic: 0, custom: 0, sessions: 0 };
    out[r.name].generic += Number(r.generic_plans);
    out[r.name].custom += Number(r.custom_plans);
    out[r.name].sessions += 1;
  }
  return out;
}

/** "generic 112 / custom 25 (4 sessions)" for a statement name, or '' when not prepared. */
export const planChoice = (counts, name) => {
  const c = name ? counts?.[name] : null;
  return c ? `generic ${c.generic} / custom ${c.custom} (${c.sessions} sessions)` : '';
};
