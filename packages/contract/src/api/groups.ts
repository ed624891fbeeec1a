import { groups } from '../registry';
import { listOf, objectListResult, op } from './ops';
import { INCLUDE_OLD_VERSIONS, INCLUDE_TRASH, LIST_PARAMS, query } from './params';

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
