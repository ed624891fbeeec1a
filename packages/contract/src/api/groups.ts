import { groups } from '../registry';
import { listOf, objectListResult, objectOf, op } from './ops';
import {
  ENSURE_UNIQUE_NAME,
  INCLUDE_OLD_VERSIONS,
  INCLUDE_TRASH,
  LIST_PARAMS,
  query,
  SELECT,
  UUID,
} from './params';

const INCLUDE = query('array', 'owner_uuid and/or container_uuid: related objects in `included`');

/**
 * `groups.contents` and `groups.shared` (groups.md §3, §4; discovery.md §4). Contents also
 * answers at `groups/{uuid}/contents`, an alternative form not listed in discovery.
 */
export const groupContentOps = {
  contents: op({
    httpMethod: 'GET',
    path: 'groups/contents',
    altPaths: ['groups/{uuid}/contents'],
    params: {
      ...LIST_PARAMS,
      uuid: query('string', 'The project, filter group, role or user whose contents to list'),
      include: INCLUDE,
      include_trash: INCLUDE_TRASH,
      include_old_versions: INCLUDE_OLD_VERSIONS,
      recursive: query('boolean', 'Include the contents of subprojects at any depth', 'false'),
      exclude_home_project: query(
        'boolean',
        "Only objects shared with the caller, outside the caller's home project",
        'false',
      ),
    },
    result: objectListResult,
    routing: 'group_uuid',
    description:
      'Project and filter groups, container requests, workflows and collections in one list.',
  }),
  shared: op({
    httpMethod: 'GET',
    path: 'groups/shared',
    params: {
      ...LIST_PARAMS,
      include: query('array', 'owner_uuid: the owners of the returned groups in `included`'),
      include_trash: INCLUDE_TRASH,
    },
    result: listOf(groups),
    routing: 'cluster_id',
    description: 'Top-level groups shared with the caller by other users.',
  }),
};

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
