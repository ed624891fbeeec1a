// Printing: plain-text tables, EXPLAIN sections, and the one JSON line at the very end.

/** rows: arrays of cells (strings/numbers); the first row is the header. Right-aligns numbers. */
export function table(rows) {
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))));
  const widths = text[0].map((_, i) => Math.max(...text.map((r) => (r[i] ?? '').length)));
  const numeric = text[0].map((_, i) =>
    text.slice(1).every((r) => /^[-+]?[\d.,]+( ms| s|%|x)?$|^-$/.test(r[i] ?? '')),
  );
  const line = (r) =>
    r
      .map((c, i) => (numeric[i] ? (c ?? '').padStart(widths[i]) : (c ?? '').padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const sep = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(text[0]), sep, ...text.slice(1).map(line)].join('\n');
}

export const out = (text = '') => process.stdout.write(`${text}\n`);

export function heading(title) {
  out();
  out(`=== ${title} ${'='.repeat(Math.max(0, 90 - title.length))}`);
}

/** One explained statement: the SQL (values inline as a comment), then the plan. */
export function printPlan(title, e) {
  out();
  out(`--- ${title}`);
  out(`SQL: ${e.sql.length > 1500 ? e.sql.slice(0, 1500) + ' …[truncated]' : e.sql}`);
  if (e.values?.length) {
    const v = JSON.stringify(e.values);
    out(`values: ${v.length > 400 ? v.slice(0, 400) + ' …' : v}`);
  }
  out(e.plan);
  out(
    `=> indexes: ${e.indexes.join(', ') || '(none)'}; seq scans: ${e.seqScans.join(', ') || '(none)'}; execution ${e.executionMs} ms${e.jitMs ? ` (of which JIT compilation ${e.jitMs} ms)` : ''}`,
  );
}

/** The last line of the output: everything as one JSON object. */
export function jsonLine(obj) {
  out(JSON.stringify(obj));
}

export const passFail = (value, target) =>
  target === undefined || target === null || value === null
    ? ''
    : value <= target
      ? 'PASS'
      : 'FAIL';

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The materialized_permissions figures of fillPermissions, in one sentence. */
export function permissionsLine(r) {
  if (!r) return 'materialized_permissions: reused database, not recomputed.';
  const stock = r.stock.timedOut
    ? `did not finish within ${secs(r.timeoutMs)} (rolled back)`
    : `took ${secs(r.stock.ms)}`;
  return (
    `materialized_permissions: ${Number(r.rows).toLocaleString('en-US')} rows. recomputeAllPermissions, in one ` +
    `transaction: with enable_nestloop=off (the fill) ${secs(r.fill.ms)}; as shipped, on the populated and ` +
    `analyzed table, ${stock}.`
  );
}

export const recomputeJson = (r) =>
  r && {
    rows: r.rows,
    nestloopOffMs: Math.round(r.fill.ms),
    asShippedMs: r.stock.timedOut ? null : Math.round(r.stock.ms),
    asShippedTimedOutAfterMs: r.stock.timedOut ? r.timeoutMs : null,
  };
