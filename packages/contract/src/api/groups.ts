import { groups } from '../registry';
import { objectOf, op } from './ops';
import { ENSURE_UNIQUE_NAME, INCLUDE_TRASH, SELECT, UUID } from './params';

/** Accepted but not listed: discovery lists only `uuid` (and untrash's ensure_unique_name). */
const unlisted = <T extends object>(p: T) => ({ ...p, unlisted: true }) as const;

/** Trash and untrash of groups (groups.md §2, §6; discovery.md §4). */
export const groupTrashOps = {
  trash: op({
    httpMethod: 'POST',
    path: 'groups/{uuid}/trash',
    params: { uuid: UUID, select: unlisted(SELECT), include_trash: unlisted(INCLUDE_TRASH) },
    result: objectOf(groups),
    routing: 'uuid',
    description: 'Trash a group (the same as delete).',
  }),
  untrash: op({
    httpMethod: 'POST',
    path: 'groups/{uuid}/untrash',
    params: { uuid: UUID, select: unlisted(SELECT), ensure_unique_name: ENSURE_UNIQUE_NAME },
    result: objectOf(groups),
    routing: 'uuid',
    description: 'Take a group out of the trash.',
  }),
};
