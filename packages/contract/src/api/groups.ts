import { groups } from '../registry';
import { objectOf, op } from './ops';
import { ENSURE_UNIQUE_NAME, INCLUDE_TRASH, SELECT, UUID } from './params';

/** Trash and untrash of groups (groups.md §2, §6; discovery.md §4). */
export const groupTrashOps = {
  trash: op({
    httpMethod: 'POST',
    path: 'groups/{uuid}/trash',
    params: { uuid: UUID, select: SELECT, include_trash: { ...INCLUDE_TRASH, unlisted: true } },
    result: objectOf(groups),
    routing: 'uuid',
    description: 'Trash a group (the same as delete).',
  }),
  untrash: op({
    httpMethod: 'POST',
    path: 'groups/{uuid}/untrash',
    params: { uuid: UUID, select: SELECT, ensure_unique_name: ENSURE_UNIQUE_NAME },
    result: objectOf(groups),
    routing: 'uuid',
    description: 'Take a group out of the trash.',
  }),
};
