import { ApiError, BadGatewayError, NotFoundError } from '@svc/errors';
import type { ItemLine } from '@svc/http-kit';
import { clusterOf } from '@svc/ids';
import type { Topology } from './topology';
import { reaches } from './topology';

/** Resources whose lists federate (federation.md §5). */
export const FEDERATED_TYPES = new Set([
  'collections',
  'users',
  'groups',
  'links',
  'container_requests',
  'containers',
  'workflows',
  'api_client_authorizations',
  'authorized_keys',
]);

/** What §5 decides for a list: answer it here as usual, answer it empty, or fan it out. */
export type ListPlan =
  | { kind: 'local' }
  | { kind: 'empty' }
  | { kind: 'fanout'; byCluster: ReadonlyMap<string, readonly string[]> };

const badRequest = (message: string) => new ApiError(400, message);
const jsonType = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v;

/** The uuids every `uuid =` / `uuid in` filter allows (their intersection), or null if none. */
function uuidSet(filters: readonly unknown[]): Set<string> | null {
  let set: Set<string> | null = null;
  for (const f of filters) {
    if (!Array.isArray(f) || f[0] !== 'uuid') continue;
    const [, op, operand] = f as [string, unknown, unknown];
    let these: string[];
    if (op === '=') {
      if (typeof operand !== 'string') {
        throw badRequest(
          `invalid operand type ${jsonType(operand)} for filter ${JSON.stringify(f)}`,
        );
      }
      these = [operand];
    } else if (op === 'in') {
      if (!Array.isArray(operand)) {
        throw badRequest(
          `invalid operand type ${jsonType(operand)} in filter ${JSON.stringify(f)}`,
        );
      }
      these = operand.filter((u): u is string => typeof u === 'string');
    } else {
      continue;
    }
    set = set === null ? new Set(these) : new Set(these.filter((u) => set!.has(u)));
  }
  return set;
}

const isUuidFilter = (f: unknown): boolean =>
  Array.isArray(f) && f[0] === 'uuid' && (f[1] === '=' || f[1] === 'in');

/** The requirements of §5 step 4, in their order; the first that fails is the answer. */
function checkFederable(options: Readonly<Record<string, unknown>>, n: number, max: number): void {
  const filters = (options['filters'] as unknown[] | undefined) ?? [];
  if (!filters.every(isUuidFilter)) {
    throw badRequest(
      "cannot execute federated list query: each filter must be either 'uuid = ...' or 'uuid in [...]'",
    );
  }
  if (options['count'] !== 'none') {
    throw badRequest('cannot execute federated list query unless count=="none"');
  }
  const limit = options['limit'];
  const offset = options['offset'] ?? 0;
  const order = (options['order'] as unknown[] | undefined) ?? [];
  if (limit !== undefined || offset !== 0 || order.length > 0) {
    throw badRequest(
      `cannot execute federated list query with limit (${limit === undefined ? 'null' : String(limit)}), offset (${String(offset)}) > 0, or order (${JSON.stringify(order)}) parameter`,
    );
  }
  if (n > max) {
    throw badRequest(
      `cannot execute federated list query because number of UUIDs (${n}) exceeds page size limit ${max}`,
    );
  }
}

/**
 * federation.md §5 steps 1–4 for a list at home without cluster_id, forwarded_for or
 * bypass_federation. Throws the section's 400s (and its 404) in their order.
 */
export function planList(
  resource: string,
  options: Readonly<Record<string, unknown>>,
  t: Topology,
  maxItems: number,
): ListPlan {
  if (!FEDERATED_TYPES.has(resource) || (t.remotes.get(t.home)?.size ?? 0) === 0) {
    return { kind: 'local' };
  }
  const set = uuidSet((options['filters'] as unknown[] | undefined) ?? []);
  if (set === null) return { kind: 'local' };
  const uuids = [...set].filter((u) => u.length === 27);
  if (uuids.length === 0) return { kind: 'empty' };
  if (uuids.every((u) => clusterOf(u) === t.home)) return { kind: 'local' };
  checkFederable(options, uuids.length, maxItems);
  const byCluster = new Map<string, string[]>();
  for (const uuid of uuids) {
    const cluster = clusterOf(uuid) ?? '';
    if (!reaches(t, t.home, cluster)) {
      throw new NotFoundError(
        `cannot execute federated list query: no proxy available for cluster "${cluster}"`,
      );
    }
    const theirs = byCluster.get(cluster);
    if (theirs) theirs.push(uuid);
    else byCluster.set(cluster, [uuid]);
  }
  return { kind: 'fanout', byCluster };
}

/**
 * The items one cluster returned for the uuids asked of it: the ones asked only, and 502 when
 * a page has items but none of them was asked (§5 step 5).
 */
export function keepAsked(
  cluster: string,
  asked: ReadonlySet<string>,
  items: readonly ItemLine[],
): ItemLine[] {
  const kept = items.filter((i) => i.uuid !== null && asked.has(i.uuid));
  if (items.length > 0 && kept.length === 0) {
    throw new BadGatewayError(
      `cannot make progress in federated list query: cluster "${cluster}" returned ${items.length} items but none had the requested UUIDs`,
    );
  }
  return kept;
}

/** Code-unit order (timestamps are of one fixed-width format, uuids of one alphabet). */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** §5 step 6: concatenated; sorted by modified_at descending, then uuid, when several gave some. */
export function mergeItems(parts: readonly (readonly ItemLine[])[]): ItemLine[] {
  const items = parts.flat();
  if (parts.filter((p) => p.length > 0).length <= 1) return items;
  return items.sort(
    (a, b) =>
      compare(b.modifiedAt ?? '', a.modifiedAt ?? '') || compare(a.uuid ?? '', b.uuid ?? ''),
  );
}
