import type { ResourceSpec } from '../types';
import { objectOf, op } from './ops';
import { ENSURE_UNIQUE_NAME, INCLUDE_TRASH, SELECT, UUID } from './params';

/** Accepted but not listed: discovery lists only `uuid` (and untrash's ensure_unique_name). */
const unlisted = <T extends object>(p: T) => ({ ...p, unlisted: true }) as const;

/**
 * `trash` and `untrash` of the resources that have them, groups and collections (groups.md §6,
 * other-resources.md §1; discovery.md §4).
 */
export function trashOps<R extends ResourceSpec>(r: R) {
  const a = r.singular.startsWith('a') ? 'an' : 'a';
  return {
    trash: op({
      httpMethod: 'POST',
      path: `${r.type}/{uuid}/trash`,
      params: { uuid: UUID, select: unlisted(SELECT), include_trash: unlisted(INCLUDE_TRASH) },
      result: objectOf(r),
      routing: 'uuid',
      description: `Trash ${a} ${r.singular} (the same as delete).`,
    }),
    untrash: op({
      httpMethod: 'POST',
      path: `${r.type}/{uuid}/untrash`,
      params: { uuid: UUID, select: unlisted(SELECT), ensure_unique_name: ENSURE_UNIQUE_NAME },
      result: objectOf(r),
      routing: 'uuid',
      description: `Take ${a} ${r.singular} out of the trash.`,
    }),
  };
}
