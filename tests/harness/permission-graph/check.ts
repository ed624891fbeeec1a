/**
 * Checks a graph against the oracle: what every non-admin user of the graph lists and may
 * update, and (given the database) the materialized permission table against a full
 * recomputation.
 */
import type { Db } from '../../../apps/core/src/db/db';
import { expectedView, type ExpectedView, type Oracle } from '../permission-oracle';
import { PermissionCheckFailure, type GraphCalls } from './calls';
import { materializedDiff } from './database';
import type { GraphModel, GUser } from './model';

/** What one check needs, shared by the users it checks; `problems` collects what differs. */
interface Round {
  model: GraphModel;
  calls: GraphCalls;
  oracle: Oracle;
  includeTrash: boolean;
  trashNote: string;
  uuids: { collections: string[]; groups: string[]; users: string[] };
  problems: string[];
}

/** Compares what every non-admin user of the graph sees with the oracle, and the table. */
export async function checkGraph(
  model: GraphModel,
  calls: GraphCalls,
  db: Db | null,
  includeTrash = false,
): Promise<void> {
  calls.stats.checks += 1;
  const t0 = Date.now();
  const round: Round = {
    model,
    calls,
    oracle: model.oracle(),
    includeTrash,
    trashNote: includeTrash ? ' (include_trash=true)' : '',
    uuids: {
      collections: model.collections.map((c) => c.uuid),
      groups: [...model.roles, ...model.projects].map((g) => g.uuid).concat(model.allUsers),
      users: model.users.map((u) => u.uuid),
    },
    problems: [],
  };
  await Promise.all(model.users.filter((u) => !u.admin).map((u) => checkUser(round, u)));
  const { problems } = round;
  const t1 = Date.now();
  if (db) problems.push(...(await compareMaterialized(model, db)));
  calls.stats.checkMs += t1 - t0;
  calls.stats.dbMs += Date.now() - t1;
  if (problems.length > 0) throw new PermissionCheckFailure(calls.report(problems));
}

async function listAs(round: Round, u: GUser, type: string, uuids: string[], select: string[]) {
  const res = await u.client.request('GET', `/svc/v1/${type}`, {
    query: {
      filters: [['uuid', 'in', uuids]],
      limit: 1000,
      select,
      ...(round.includeTrash ? { include_trash: 'true' } : {}),
    },
  });
  round.calls.stats.requests += 1;
  if (res.status !== 200) throw new Error(`list ${type} as ${u.name}: ${res.status} ${res.text}`);
  return res.body.items as Record<string, unknown>[];
}

/** What one user lists, the flags on what it lists, and which updates it may make. */
async function checkUser(round: Round, u: GUser): Promise<void> {
  const want = expectedView(round.oracle, u.uuid, round.includeTrash);
  const flags = ['uuid', 'can_write', 'can_manage'];
  const [cols, groups, users] = await Promise.all([
    listAs(round, u, 'collections', round.uuids.collections, ['uuid']),
    listAs(round, u, 'groups', round.uuids.groups, flags),
    listAs(round, u, 'users', round.uuids.users, flags),
  ]);
  const uuidsOf = (items: Record<string, unknown>[]) => items.map((c) => String(c['uuid']));
  compareSet(round, u, 'collections', Object.keys(want.collections), uuidsOf(cols));
  compareSet(round, u, 'groups', Object.keys(want.groups), uuidsOf(groups));
  compareSet(round, u, 'users', Object.keys(want.users), uuidsOf(users));
  for (const [kind, items, expected] of [
    ['group', groups, want.groups],
    ['user', users, want.users],
  ] as const) {
    for (const item of items) compareFlags(round, u, kind, item, expected[String(item['uuid'])]);
  }
  await probeWrites(round, u, cols, want);
}

function compareSet(round: Round, u: GUser, what: string, expected: string[], actual: string[]) {
  const names = round.model.names;
  const missing = expected.filter((x) => !actual.includes(x));
  const extra = actual.filter((x) => !expected.includes(x));
  if (missing.length > 0 || extra.length > 0) {
    round.problems.push(
      `${u.name} lists ${what}${round.trashNote}: expected [${expected.map((x) => names.get(x) ?? x).join(', ')}]` +
        ` got [${actual.map((x) => names.get(x) ?? x).join(', ')}]` +
        (missing.length ? ` (missing ${missing.map((x) => names.get(x)).join(', ')})` : '') +
        (extra.length ? ` (extra ${extra.map((x) => names.get(x)).join(', ')})` : ''),
    );
  }
}

function compareFlags(
  round: Round,
  u: GUser,
  kind: string,
  item: Record<string, unknown>,
  e: { can_write: boolean; can_manage: boolean } | undefined,
): void {
  if (!e) return;
  if (item['can_write'] !== e.can_write || item['can_manage'] !== e.can_manage) {
    round.problems.push(
      `${u.name} on ${kind} ${round.model.names.get(String(item['uuid']))}: expected can_write=${e.can_write} can_manage=${e.can_manage}, got can_write=${String(item['can_write'])} can_manage=${String(item['can_manage'])} (oracle level ${round.oracle.levelOf(u.uuid, String(item['uuid']))})`,
    );
  }
}

/**
 * Write probes: an empty update changes nothing, but the write check runs first
 * (crud.ts `update`): 200 with write permission, 403 without.
 */
async function probeWrites(
  round: Round,
  u: GUser,
  cols: Record<string, unknown>[],
  want: ExpectedView,
): Promise<void> {
  const { model, includeTrash } = round;
  await Promise.all(
    cols.map(async (c) => {
      const uuid = String(c['uuid']);
      const e = want.collections[uuid];
      if (!e) return;
      const res = await u.client.request('PUT', `/svc/v1/collections/${uuid}`, {
        json: {},
        ...(includeTrash ? { query: { include_trash: 'true' } } : {}),
      });
      round.calls.stats.requests += 1;
      if (res.status !== e.update) {
        round.problems.push(
          `${u.name}: PUT /svc/v1/collections/${model.names.get(uuid)}${round.trashNote} {} expected ${e.update}, got ${res.status} ${model.symbolic(res.text.slice(0, 200))} (oracle level ${round.oracle.levelOf(u.uuid, uuid)})`,
        );
      }
    }),
  );
}

/**
 * permissions.md §9: "The result MUST equal a full recomputation." Only the rows of this
 * graph's users and objects: the built-in rows are checked once, by their own test.
 */
async function compareMaterialized(model: GraphModel, db: Db): Promise<string[]> {
  const diff = await materializedDiff(db, model.clusterId, model.uuids());
  if (diff.length === 0) return [];
  return [
    `materialized_permissions differs from a full recomputation:${model.symbolic(diff.join(''))}`,
  ];
}
