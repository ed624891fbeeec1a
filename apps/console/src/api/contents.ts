import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { attributeOf, resourceByKind } from '@svc/contract';
import { useSession } from './session';
import type { ContentItem } from './types';

export type SortKey = 'name' | 'modified_at' | 'created_at';

/** What a contents table shows: one page of a project, sorted and filtered. */
export interface ContentsView {
  page: number;
  pageSize: number;
  sort: SortKey;
  dir: 'asc' | 'desc';
  name: string;
  /** Kinds to show (`svc#group`, …); empty means all four. */
  kinds: string[];
}

export const DEFAULT_VIEW: ContentsView = {
  page: 1,
  pageSize: 50,
  sort: 'modified_at',
  dir: 'desc',
  name: '',
  kinds: [],
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

export const CONTENT_KINDS = ['svc#group', 'svc#containerRequest', 'svc#workflow', 'svc#collection'];

/** Row attributes that at least one listed type has (a name no type has is a 422). */
function rowSelect(kinds: string[]): string[] {
  const types = (kinds.length > 0 ? kinds : CONTENT_KINDS).map((k) => resourceByKind(k)!);
  return ROW_SELECT.filter((name) => types.some((t) => attributeOf(t, name) !== undefined));
}

/** `%` and `_` are wildcards in `ilike`: a name filter matches them as themselves. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The list filters of a view (groups.md §3: unqualified filters apply to every type). */
export function viewFilters(view: Pick<ContentsView, 'name' | 'kinds'>): unknown[] {
  const filters: unknown[] = [];
  if (view.name.trim() !== '') filters.push(['name', 'ilike', likePattern(view.name.trim())]);
  if (view.kinds.length > 0) filters.push(['uuid', 'is_a', view.kinds]);
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
    select: rowSelect(view.kinds),
    count: 'exact',
    ...rest,
  };
}

export interface ContentsPage {
  items: ContentItem[];
  items_available?: number;
}

/** One page of `groups.contents` (a project, a user's home, or everything with `extra`). */
export function useContents(view: ContentsView, extra: Record<string, unknown>) {
  const { client } = useSession();
  const options = contentsOptions(view, extra);
  return useQuery({
    queryKey: ['contents', options],
    queryFn: () => client.call('svc.groups.contents', options) as Promise<ContentsPage>,
    placeholderData: keepPreviousData,
  });
}
