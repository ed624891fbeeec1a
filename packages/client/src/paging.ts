import { attributeOf, isOrderable, resourceByType, type Endpoint } from '@svc/contract';

/** One page of a list answer (lists-and-filters.md §2). */
interface Page {
  items: Record<string, unknown>[];
  limit: number;
  items_available?: number;
}

export type ListCall = (options: Record<string, unknown>) => Promise<Page>;

export interface Progress {
  /** Items yielded so far. */
  fetched: number;
  /** All matching items, when the first page counted them. */
  total: number | null;
}

export interface PagingOptions {
  /** Called after each page, e.g. to show progress. */
  onPage?: (progress: Progress) => void;
}

type Filter = unknown;
type Direction = 'asc' | 'desc';
const DEFAULT_ORDER = ['modified_at desc', 'uuid asc'];
/** Types whose values `<` / `>` compare as the order does (not booleans, hashes or arrays). */
const KEYSET_TYPES = new Set(['string', 'text', 'integer', 'float', 'datetime']);

function orderEntries(order: unknown, type: string): [string, Direction][] {
  const raw = Array.isArray(order)
    ? order.map(String)
    : typeof order === 'string' && order.trim() !== ''
      ? order.split(',')
      : [];
  const entries = (raw.length > 0 ? raw : DEFAULT_ORDER).map((e): [string, Direction] => {
    const [attr = '', dir = 'asc'] = e.trim().split(/\s+/);
    const name = attr.startsWith(`${type}.`) ? attr.slice(type.length + 1) : attr;
    return [name, dir.toLowerCase() === 'desc' ? 'desc' : 'asc'];
  });
  const uuidAt = entries.findIndex(([a]) => a === 'uuid');
  // The server appends `uuid asc` and ignores what follows the first uuid entry (§3).
  return uuidAt < 0 ? [...entries, ['uuid', 'asc']] : entries.slice(0, uuidAt + 1);
}

/**
 * How to walk a list: by keyset when its order is `uuid` alone or one attribute that compares
 * with `<`/`>` followed by uuid (then no item is skipped or repeated while others are added),
 * by offset otherwise (distinct, several sort keys, boolean keys, lists of several types).
 */
export type Walk =
  | { kind: 'offset' }
  | { kind: 'uuid'; uuidDir: Direction }
  | { kind: 'key'; key: string; dir: Direction; nullable: boolean; uuidDir: Direction };

export function planWalk(endpoint: Endpoint, options: Readonly<Record<string, unknown>>): Walk {
  const resource = resourceByType(endpoint.resource);
  if (endpoint.name !== 'list' || !resource || options['distinct'] === true)
    return { kind: 'offset' };
  const entries = orderEntries(options['order'], resource.type);
  const uuidDir = entries.at(-1)![1];
  if (entries.length === 1) return { kind: 'uuid', uuidDir };
  if (entries.length > 2) return { kind: 'offset' };
  const [key, dir] = entries[0]!;
  const spec = attributeOf(resource, key);
  if (!spec || !isOrderable(resource, key) || !KEYSET_TYPES.has(spec.type))
    return { kind: 'offset' };
  return { kind: 'key', key, dir, nullable: spec.nullable === true, uuidDir };
}

const after = (dir: Direction) => (dir === 'asc' ? '>' : '<');

/** Lists every matching item, page by page, in the list's order. */
export async function* walkList(
  list: ListCall,
  walk: Walk,
  options: Readonly<Record<string, unknown>>,
  paging: PagingOptions = {},
): AsyncGenerator<Record<string, unknown>> {
  const { offset: _ignored, ...rest } = options;
  const filters = (Array.isArray(rest['filters']) ? rest['filters'] : []) as Filter[];
  const needed = walk.kind === 'key' ? ['uuid', walk.key] : walk.kind === 'uuid' ? ['uuid'] : [];
  const select = Array.isArray(rest['select']) ? (rest['select'] as string[]) : null;
  const added = select ? needed.filter((n) => !select.includes(n)) : [];
  const base: Record<string, unknown> = {
    ...rest,
    ...(select ? { select: [...select, ...added] } : {}),
  };
  const progress: Progress = { fetched: 0, total: null };
  let first = true;

  /** One page: counted on the first request only (counting costs the server). */
  const fetch = async (extra: Record<string, unknown>): Promise<Page> => {
    const count = first ? base['count'] : 'none';
    const page = await list({ ...base, ...extra, ...(count !== undefined ? { count } : {}) });
    if (first) progress.total = page.items_available ?? null;
    first = false;
    progress.fetched += page.items.length;
    paging.onPage?.({ ...progress });
    return page;
  };
  const strip = (item: Record<string, unknown>) =>
    added.length === 0
      ? item
      : Object.fromEntries(Object.entries(item).filter(([k]) => !added.includes(k)));
  // A walk that starts with the NULL group would count only that group: count the whole first.
  if (walk.kind === 'key' && walk.nullable && walk.dir === 'desc' && base['count'] !== 'none')
    await fetch({ limit: 0 });
  for await (const page of pagesOf(fetch, walk, filters)) {
    for (const item of page) yield strip(item);
  }
}

type Fetch = (extra: Record<string, unknown>) => Promise<Page>;

async function* pagesOf(fetch: Fetch, walk: Walk, filters: Filter[]) {
  if (walk.kind === 'offset') yield* byOffset(fetch);
  else if (walk.kind === 'uuid') yield* byUuid(fetch, filters, walk.uuidDir);
  else yield* byKey(fetch, filters, walk);
}

async function* byOffset(fetch: Fetch) {
  for (let offset = 0; ;) {
    const page = await fetch({ offset });
    yield page.items;
    offset += page.items.length;
    if (page.items.length === 0 || page.items.length < page.limit) return;
  }
}

/** `uuid > last` (or `<`), ordered by uuid alone. */
async function* byUuid(fetch: Fetch, filters: Filter[], dir: Direction, start?: string) {
  for (let last = start; ;) {
    const where = last === undefined ? filters : [...filters, ['uuid', after(dir), last]];
    const page = await fetch({ filters: where, order: [`uuid ${dir}`] });
    yield page.items;
    if (page.items.length === 0 || page.items.length < page.limit) return;
    last = page.items.at(-1)!['uuid'] as string;
  }
}

/**
 * Ordered by one attribute k, then uuid. Filters only AND, so "after (v, u)" is asked in two
 * steps: the rest of k = v by uuid, then k beyond v. NULLs sort last (first when descending)
 * and match no comparison, so they are walked on their own.
 */
async function* byKey(fetch: Fetch, filters: Filter[], w: Extract<Walk, { kind: 'key' }>) {
  const nulls = [...filters, [w.key, '=', null]];
  if (w.nullable && w.dir === 'desc') yield* byUuid(fetch, nulls, w.uuidDir);
  const nonNull = w.nullable ? [...filters, [w.key, '!=', null]] : filters;
  const order = [`${w.key} ${w.dir}`, `uuid ${w.uuidDir}`];
  for (let last: Record<string, unknown> | undefined; ;) {
    const where = last ? [...nonNull, [w.key, after(w.dir), last[w.key]]] : nonNull;
    const page = await fetch({ filters: where, order });
    yield page.items;
    if (page.items.length === 0 || page.items.length < page.limit) break;
    last = page.items.at(-1)!;
    const group = [...nonNull, [w.key, '=', last[w.key]]];
    yield* byUuid(fetch, group, w.uuidDir, last['uuid'] as string);
  }
  if (w.nullable && w.dir === 'asc') yield* byUuid(fetch, nulls, w.uuidDir);
}
