import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { typeOfUuid } from './ids';
import { objectQuery } from './query-options';
import { useSession } from './session';

/** Any object by uuid through its type's `get` (or a collection by PDH). */
export function useObject<T = Record<string, unknown>>(
  id: string | undefined,
  opts: { includeTrash?: boolean } = {},
) {
  const { client } = useSession();
  return useQuery({
    ...objectQuery<T>(client, id ?? '', opts.includeTrash ?? false),
    enabled: id !== undefined,
  });
}

/** Calls by endpoint id that change something; every cached answer is refreshed after. */
export function useApiMutation<V extends Record<string, unknown>>(
  endpoint: (v: V) => string,
  options: (v: V) => Record<string, unknown> = (v) => v,
) {
  const { client } = useSession();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => client.call(endpoint(v), options(v)),
    onSuccess: () => queries.invalidateQueries(),
  });
}

/** `svc.<type>.update` of any object. */
export function useUpdate() {
  return useApiMutation<{ uuid: string; attributes: Record<string, unknown> }>(
    (v) => `svc.${typeOfUuid(v.uuid)}.update`,
  );
}

/** Name of a user for display: full name, else username, else email, else uuid. */
export const userLabel = (u: {
  uuid: string;
  full_name?: string | null;
  username?: string | null;
  email?: string | null;
}): string => u.full_name?.trim() || u.username || u.email || u.uuid;
