import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { contentsOptions, type ContentsView } from './contents-view';
import { useSession } from './session';
import type { ContentItem } from './types';

export * from './contents-view';

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
