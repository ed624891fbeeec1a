import { isBuiltIn, type ResourceSpec } from '@svc/contract';
import { ForbiddenError, NotFoundError, UnprocessableError } from '@svc/errors';
import type { Purpose } from '../../permissions/policy';
import {
  compileList,
  join,
  listLimitsOf,
  parseListParams,
  parseSelect,
  rowColumns,
  type Sql,
} from '@svc/list-engine';
import { makeUuid } from '@svc/ids';
import {
  arrayOption,
  flagOption,
  stringOption,
  type Call,
  type Handler,
  type Reply,
} from '../../call';
import type { Db } from '../../db/db';
import { checkedInput, extractAttributes } from './input';
import { renderObject } from './render';
import { nowCanonical, type Row } from './row';
import type { ResourceRules, WriteContext } from './rules';
import { enforceUniqueName } from './unique-name';
import {
  checkFrozenLinkHead,
  checkFrozenCreate,
  checkFrozenRemove,
  checkFrozenUpdate,
  followsFrozenRules,
} from './frozen';
import { deleteLinksOf } from '../../permissions/graph-writes';
import { checkReferences } from './references';
import { checkProperties } from './vocabulary-check';
import {
  deleteStatement,
  insertStatement,
  selectByUuid,
  storedColumns,
  updateStatement,
} from './write-sql';

const selectParam = (call: Call, r: ResourceSpec): string[] | null =>
  parseSelect(r, arrayOption(call, 'select'));

const uuidParam = (call: Call): string => stringOption(call, 'uuid');

/** Renders rows after the resource loaded what its computed attributes need. */
export async function renderAll(
  call: Call,
  rules: ResourceRules,
  rows: readonly Row[],
  select: string[] | null,
  forList: boolean,
) {
  await rules.beforeRender?.(call, rows);
  return rows.map((row) => render(call, rules, row, select, forList));
}

function render(
  call: Call,
  rules: ResourceRules,
  row: Row,
  select: string[] | null,
  forList = false,
) {
  const compute = rules.computeAttribute;
  const out = renderObject(
    rules.resource,
    row,
    select,
    forList,
    compute && ((n, rw) => compute(call, n, rw)),
  );
  const allowed = rules.visibleAttributes?.(call, row);
  return allowed
    ? Object.fromEntries(Object.entries(out).filter(([key]) => allowed.has(key)))
    : out;
}

const scopeOf = (call: Call, rules: ResourceRules, purpose: Purpose = 'read'): Sql[] =>
  rules.policy.visible(call, purpose);

/** The row a uuid names, if the caller may see it; 404 otherwise (never 403). */
export async function findVisible(
  call: Call,
  rules: ResourceRules,
  db: Db,
  uuid: string,
  lock: boolean,
  purpose: Purpose = 'read',
  extraColumns: readonly Sql[] = [],
): Promise<Row> {
  const r = rules.resource;
  const columns = join([rowColumns(r, null, false), ...extraColumns], ', ');
  const { rows } = await db.query<Row>(
    selectByUuid(r, columns, uuid, scopeOf(call, rules, purpose), lock),
  );
  if (!rows[0]) throw new NotFoundError();
  return rows[0];
}

/** A new row: schema defaults, then the client's `rw` attributes, then the common fields. */
function draftRow(call: Call, r: ResourceSpec, input: Record<string, unknown>, now: string): Row {
  const row: Row = {};
  for (const name of storedColumns(r)) {
    const spec = r.attributes[name]!;
    if (spec.default !== undefined) row[name] = structuredClone(spec.default);
  }
  for (const [name, value] of Object.entries(input)) {
    if ((r.attributes[name]?.input ?? 'rw') === 'rw' && storedColumns(r).includes(name))
      row[name] = value;
  }
  row['uuid'] =
    typeof input['uuid'] === 'string' ? input['uuid'] : makeUuid(call.cluster.ClusterID, r.infix);
  row['owner_uuid'] ??= call.caller.uuid;
  row['created_at'] = now;
  row['modified_at'] = now;
  row['modified_by_user_uuid'] = call.caller.uuid;
  return row;
}

async function create(call: Call, rules: ResourceRules): Promise<Reply> {
  const r = rules.resource;
  const select = selectParam(call, r);
  const ensureUnique = flagOption(call, 'ensure_unique_name');
  const attrs = extractAttributes(call);
  const row = await call.db.transaction(async (tx) => {
    await rules.policy.create(call, tx, attrs);
    if (followsFrozenRules(r.type, attrs)) {
      await checkFrozenCreate(tx, attrs['owner_uuid']);
      await checkFrozenLinkHead(tx, r.type, [attrs['head_uuid']], (head) => head);
    }
    await rules.checkWrite?.(call, tx, attrs, null);
    const input = checkedInput(call, r, attrs, 'create');
    checkProperties(call, r, input);
    const now = nowCanonical();
    const ctx: WriteContext = { call, tx, now, input };
    const draft = draftRow(call, r, input, now);
    await rules.prepareCreate?.(ctx, draft);
    const existing = await rules.existingFor?.(ctx, draft);
    if (existing) return findVisible(call, rules, tx, String(existing['uuid']), false);
    await checkReferences(call, tx, r, draft, null, rules.ownReferenceRules);
    if (r.uniqueNamePerOwner) await enforceUniqueName(tx, r, draft, now, ensureUnique);
    const { rows } = await tx.query<Row>(
      insertStatement(r, draft, rowColumns(r, null, false), rules.internalColumns),
    );
    await rules.afterWrite?.(ctx, rows[0]!, null);
    return rules.afterWriteRow ? rules.afterWriteRow(ctx, rows[0]!, null) : rows[0]!;
  });
  return { body: (await renderAll(call, rules, [row], select, false))[0] };
}

/** 64-bit integers beyond doubles arrive as BigInt (containers' priorities). */
const exactJson = (v: unknown): string | undefined =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
const sameValue = (a: unknown, b: unknown): boolean => exactJson(a) === exactJson(b);

async function update(call: Call, rules: ResourceRules): Promise<Reply> {
  const r = rules.resource;
  const select = selectParam(call, r);
  const attrs = extractAttributes(call);
  const row = await call.db.transaction(async (tx) => {
    const current = await findVisible(call, rules, tx, uuidParam(call), true);
    await rules.policy.write(call, tx, current, attrs, 'update');
    if (followsFrozenRules(r.type, current)) {
      await checkFrozenUpdate(tx, current, attrs);
      const heads = [current['head_uuid'], attrs['head_uuid']];
      await checkFrozenLinkHead(tx, r.type, heads, () => String(current['uuid']));
    }
    await rules.checkWrite?.(call, tx, attrs, current);
    const input = checkedInput(call, r, attrs, 'update', String(current['uuid']));
    checkProperties(call, r, input);
    const now = nowCanonical();
    const ctx: WriteContext = { call, tx, now, input };
    const next: Row = { ...current };
    for (const [name, value] of Object.entries(input)) {
      if ((r.attributes[name]?.input ?? 'rw') === 'rw') next[name] = value;
    }
    await rules.prepareUpdate?.(ctx, current, next);
    await checkReferences(call, tx, r, next, current, rules.ownReferenceRules);
    const changes: Row = {};
    // Internal columns (a sealed secret) are never read back: a value set for them is a change.
    for (const name of [...storedColumns(r), ...(rules.internalColumns ?? [])]) {
      if (name in next && !sameValue(next[name], current[name])) changes[name] = next[name];
    }
    if (Object.keys(changes).length === 0) return current;
    if (
      r.uniqueNamePerOwner &&
      ('name' in changes || 'owner_uuid' in changes || 'trash_at' in changes)
    ) {
      await enforceUniqueName(tx, r, next, now, false);
    }
    changes['modified_at'] = now;
    changes['modified_by_user_uuid'] = call.caller.uuid;
    const { rows } = await tx.query<Row>(
      updateStatement(r, String(current['uuid']), changes, rowColumns(r, null, false)),
    );
    await rules.afterWrite?.(ctx, rows[0]!, current);
    return rules.afterWriteRow ? rules.afterWriteRow(ctx, rows[0]!, current) : rows[0]!;
  });
  return { body: (await renderAll(call, rules, [row], select, false))[0] };
}

async function remove(call: Call, rules: ResourceRules): Promise<Reply> {
  const r = rules.resource;
  const select = selectParam(call, r);
  const row = await call.db.transaction(async (tx) => {
    const current = await findVisible(call, rules, tx, uuidParam(call), true, 'remove');
    await rules.policy.write(call, tx, current, null, 'delete');
    if (isBuiltIn(call.cluster.ClusterID, String(current['uuid']))) throw new ForbiddenError();
    if (followsFrozenRules(r.type, current)) {
      await checkFrozenRemove(tx, String(current['uuid']), String(current['owner_uuid']));
      const uuid = String(current['uuid']);
      await checkFrozenLinkHead(tx, r.type, [current['head_uuid']], () => uuid);
    }
    if (rules.remove) return rules.remove(call, current, tx, nowCanonical());
    await tx.query(deleteStatement(r, String(current['uuid'])));
    await deleteLinksOf(tx, call.cluster.ClusterID, String(current['uuid']));
    await rules.afterRemove?.(call, current, tx);
    return current;
  });
  return { body: (await renderAll(call, rules, [row], select, false))[0] };
}

/** The object a uuid names, rendered with the call's `select` (no guard: callers decide). */
export async function readObject(call: Call, rules: ResourceRules, uuid: string): Promise<Reply> {
  const select = selectParam(call, rules.resource);
  const extra = rules.renderColumns?.(call, rules.resource.type, select) ?? [];
  const row = await findVisible(call, rules, call.db, uuid, false, 'read', extra);
  return { body: (await renderAll(call, rules, [row], select, false))[0] };
}

const get = (call: Call, rules: ResourceRules): Promise<Reply> =>
  readObject(call, rules, uuidParam(call));

async function list(call: Call, rules: ResourceRules): Promise<Reply> {
  const r = rules.resource;
  const plan = parseListParams(r, call.options, listLimitsOf(call.cluster.API));
  const extra = plan.distinct ? [] : (rules.renderColumns?.(call, r.type, plan.select) ?? []);
  const compiled = compileList(plan, scopeOf(call, rules), extra);
  const [items, count] = await Promise.all([
    call.db.query<Row>(compiled.items),
    compiled.count ? call.db.query<{ n: number | bigint }>(compiled.count) : null,
  ]);
  return {
    body: {
      kind: `${r.kind}List`,
      offset: plan.offset,
      limit: plan.limit,
      items: await renderAll(call, rules, items.rows, plan.select, true),
      ...(count ? { items_available: Number(count.rows[0]?.n ?? 0) } : {}),
    },
  };
}

/** The five common methods of a resource, with its rules composed in. */
export function crudHandlers(rules: ResourceRules): Record<string, Handler> {
  const guarded =
    (fn: (call: Call, rules: ResourceRules) => Promise<Reply>): Handler =>
    (call) => {
      rules.guard?.(call);
      return fn(call, rules);
    };
  return {
    create: guarded(create),
    get: guarded(get),
    update: guarded(update),
    delete: guarded(remove),
    list: guarded(list),
  };
}

/** A 422 listing resource-rule failures, if there are any. */
export function failIfAny(problems: readonly string[]): void {
  if (problems.length > 0) throw new UnprocessableError(problems);
}
