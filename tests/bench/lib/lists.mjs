// List requests as the server compiles them, and their EXPLAIN evidence.
import { dist } from './common.mjs';
import { explainBoth, traced } from './sql.mjs';

/**
 * The SQL the core runs for `GET /svc/v1/<type>` with these (raw, string) parameters, as
 * `caller` ({uuid, isAdmin, isActive}): parseListParams + compileList of the list engine, with
 * the resource's own access policy as scope (apps/core resources/<type>/rules.js).
 */
export function compileListRequest({ rules, cluster, caller, params }) {
  const { parseListParams, compileList } = dist('packages/list-engine/dist/index.js');
  const call = { cluster, caller, params, options: params, db: null, locals: {} };
  const plan = parseListParams(rules.resource, params, {
    maxItemsPerResponse: cluster.API.MaxItemsPerResponse,
  });
  return compileList(plan, rules.policy.visible(call, 'read'));
}

const norm = (q) =>
  q ? { text: q.text.replace(/\s+/g, ' ').trim(), values: JSON.stringify(q.values) } : null;

/**
 * One request traced: the statements the server ran. Checks that the list statements are the
 * compiled ones (same text and values) and explains those the server ran.
 */
export async function explainListRequest(client, { request, compiled }) {
  const { result, statements } = await traced(request);
  const listStatements = statements.filter(
    (s) => /^SELECT /.test(s.text) && /\bFROM "(collections|groups|links|users)"/.test(s.text),
  );
  const items = listStatements.find((s) => !/^SELECT count\(\*\)/.test(s.text)) ?? null;
  const count = listStatements.find((s) => /^SELECT count\(\*\)/.test(s.text)) ?? null;
  const same = (a, b) => {
    const x = norm(a);
    const y = norm(b);
    return x === null || y === null ? x === y : x.text === y.text && x.values === y.values;
  };
  const verified = same(items, compiled.items) && same(count, compiled.count);
  return {
    status: result.status,
    body: result.body,
    verified,
    statements: statements.map((s) => ({ text: s.text, ms: s.ms, name: s.name })),
    items: items
      ? { ...(await explainBoth(client, items)), tracedMs: items.ms, name: items.name }
      : null,
    count: count
      ? { ...(await explainBoth(client, count)), tracedMs: count.ms, name: count.name }
      : null,
  };
}
