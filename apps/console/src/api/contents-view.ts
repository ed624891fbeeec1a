/** What a contents table asks the server for: pure, no React. */
import { attributeOf, resourceByKind } from '@svc/contract';

export const CONTENT_KINDS = [
  'svc#group',
  'svc#containerRequest',
  'svc#workflow',
  'svc#collection',
];

export type SortKey = 'name' | 'modified_at' | 'created_at';

/** What a contents table shows: one page of a project, sorted and filtered. */
export interface ContentsView {
  page: number;
  pageSize: number;
  sort: SortKey;
  dir: 'asc' | 'desc';
  name: string;
  /** Kinds to show (`svc#group`, …); empty means all that the table lists. */
  kinds: string[];
  /** The kinds the table lists at all (the trash: projects and collections). */
  scopeKinds: string[];
}

export const DEFAULT_VIEW: ContentsView = {
  page: 1,
  pageSize: 50,
  sort: 'modified_at',
  dir: 'desc',
  name: '',
  kinds: [],
  scopeKinds: CONTENT_KINDS,
};

/** The attributes a row needs: a page of a large project stays small. */
const ROW_SELECT = [
  'uuid',
  'name',
  'owner_uuid',
  'modified_at',
  'created_at',
  'group_class',
  'state',
  'portable_data_hash',
  'file_count',
  'file_size_total',
  'frozen_by_uuid',
  'is_trashed',
  'trash_at',
  'delete_at',
  'container_uuid',
];

/** Row attributes that at least one listed type has (a name no type has is a 422). */
function rowSelect(kinds: string[]): string[] {
  const types = kinds.map((k) => resourceByKind(k)!);
  return ROW_SELECT.filter((name) => types.some((t) => attributeOf(t, name) !== undefined));
}

/** `%` and `_` are wildcards in `ilike`: a name filter matches them as themselves. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The list filters of a view (groups.md §3: unqualified filters apply to every type). */
/** The kinds a view lists: those ticked, else all of its scope. */
const shownKinds = (view: Pick<ContentsView, 'kinds' | 'scopeKinds'>): string[] =>
  view.kinds.length > 0 ? view.kinds : view.scopeKinds;

/** The list filters of a view (groups.md §3: unqualified filters apply to every type). */
export function viewFilters(view: Pick<ContentsView, 'name' | 'kinds' | 'scopeKinds'>): unknown[] {
  const filters: unknown[] = [];
  if (view.name.trim() !== '') filters.push(['name', 'ilike', likePattern(view.name.trim())]);
  const kinds = shownKinds(view);
  if (kinds.length < CONTENT_KINDS.length) filters.push(['uuid', 'is_a', kinds]);
  return filters;
}

/** `groups.contents` options for one page of a view. */
export function contentsOptions(view: ContentsView, extra: Record<string, unknown> = {}) {
  const { filters: scopeFilters, ...rest } = extra;
  return {
    limit: view.pageSize,
    offset: (view.page - 1) * view.pageSize,
    order: [`${view.sort} ${view.dir}`],
    filters: [...viewFilters(view), ...((scopeFilters as unknown[] | undefined) ?? [])],
    select: rowSelect(shownKinds(view)),
    count: 'exact',
    ...rest,
  };
}
