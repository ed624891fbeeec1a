import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { contentsOptions, type ContentsView } from './contents-view';
import { useSession } from './session';
import { contentsQuery } from './query-options';

export * from './contents-view';
export type { ContentsPage } from './query-options';

/** One page of `groups.contents` (a project, a user's home, or everything with `extra`). */
export function useContents(view: ContentsView, extra: Record<string, unknown>) {
  const { client } = useSession();
  const options = contentsOptions(view, extra);
  return useQuery({
    ...contentsQuery(client, options),
    placeholderData: keepPreviousData,
  });
}
