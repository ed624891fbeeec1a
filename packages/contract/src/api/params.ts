import type { ParamSpec, ParamType } from '../params';

/** A query parameter whose declared type is kept in its TypeScript type (typed options). */
export interface QueryParam<T extends ParamType = ParamType> extends ParamSpec {
  readonly type: T;
  readonly location: 'query';
  readonly required: false;
}

/** A query parameter discovery lists as required (its absence is the operation's own error). */
export interface RequiredQueryParam<T extends ParamType = ParamType> extends ParamSpec {
  readonly type: T;
  readonly location: 'query';
  readonly required: true;
}

export const requiredQuery = <T extends ParamType>(
  type: T,
  description: string,
): RequiredQueryParam<T> => ({ type, location: 'query', required: true, description });

/** The `{uuid}` path segment: always present. */
export interface PathParam extends ParamSpec {
  readonly type: 'string';
  readonly location: 'path';
  readonly required: true;
}

export const query = <T extends ParamType>(
  type: T,
  description: string,
  dflt?: string,
): QueryParam<T> => ({
  type,
  location: 'query',
  required: false,
  description,
  ...(dflt !== undefined ? { default: dflt } : {}),
});

export const UUID: PathParam = {
  type: 'string',
  location: 'path',
  required: true,
  description: 'The object uuid',
};

export const SELECT = query('array', 'Attributes of each object to return');
export const INCLUDE_TRASH = query('boolean', 'Include trashed and hidden objects', 'false');
/**
 * `include_trash` lifts trash hiding on any call that finds objects (permissions.md §7, e.g.
 * moving a hidden subproject with an update, groups.md §6), also where discovery does not
 * list it.
 */
const INCLUDE_TRASH_UNLISTED = { ...INCLUDE_TRASH, unlisted: true } as const;
export const ENSURE_UNIQUE_NAME = query(
  'boolean',
  'Rename instead of failing on a name clash',
  'false',
);
export const ASYNC = query('boolean', 'Defer the permission update; answer 202', 'false');
export const INCLUDE_OLD_VERSIONS = query('boolean', 'No effect in svc v1', 'false');

/** The list parameter set of discovery.md §4. */
export const LIST_PARAMS = {
  limit: query('integer', 'Maximum number of items to return', '100'),
  offset: query('integer', 'Number of matching items to skip', '0'),
  filters: query('array', 'Conditions, all of which must hold'),
  order: query('array', 'Sort keys, each optionally followed by asc or desc'),
  select: SELECT,
  distinct: query('boolean', 'Return each distinct selection once', 'false'),
  count: query('string', 'exact: include items_available; none: omit it', 'exact'),
  where: query('object', 'Legacy conditions: attribute to value'),
  cluster_id: query('string', 'List on this cluster'),
  bypass_federation: query('boolean', 'Admins: list locally only', 'false'),
  include_trash: INCLUDE_TRASH_UNLISTED,
};

/** Admins: act on this cluster's own record of another cluster's uuid (federation.md §2). */
const BYPASS_UNLISTED = {
  ...query('boolean', 'Admins: act on the local record', 'false'),
  unlisted: true,
} as const;

export const GET_PARAMS = {
  uuid: UUID,
  select: SELECT,
  include_trash: INCLUDE_TRASH_UNLISTED,
  bypass_federation: BYPASS_UNLISTED,
};
export const CREATE_PARAMS = {
  select: SELECT,
  ensure_unique_name: ENSURE_UNIQUE_NAME,
  cluster_id: query('string', 'Create the object on this cluster'),
};
export const UPDATE_PARAMS = {
  uuid: UUID,
  select: SELECT,
  include_trash: INCLUDE_TRASH_UNLISTED,
  bypass_federation: BYPASS_UNLISTED,
};
export const DELETE_PARAMS = {
  uuid: UUID,
  select: SELECT,
  include_trash: INCLUDE_TRASH_UNLISTED,
  bypass_federation: BYPASS_UNLISTED,
};
