import type { SvcClient } from './client';
import { typeOfUuid } from './ids';
import type { ContentItem } from './types';

export interface ContentsPage {
  items: ContentItem[];
  items_available?: number;
}

/** The query of one page of `groups.contents`: its cache key and how to fetch it. */
export const contentsQuery = (client: SvcClient, options: Record<string, unknown>) => ({
  queryKey: ['contents', options],
  queryFn: () => client.call('svc.groups.contents', options) as Promise<ContentsPage>,
});

/** The query of any object by uuid through its type's `get` (or a collection by PDH). */
export const objectQuery = <T>(client: SvcClient, id: string, includeTrash = false) => ({
  queryKey: ['object', id, includeTrash],
  queryFn: async () => {
    const type = typeOfUuid(id) ?? 'collections';
    const withTrash = type === 'groups' || type === 'collections';
    return (await client.call(`svc.${type}.get`, {
      uuid: id,
      ...(withTrash && includeTrash ? { include_trash: true } : {}),
    })) as T;
  },
});
