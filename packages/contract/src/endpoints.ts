import { RESOURCES, schemaName } from './registry';
import type { HttpMethod, ParamSpec, ParamSpecs } from './params';
import type { ResourceSpec } from './types';
import { CONTAINER_ENDPOINTS } from './endpoints-containers';

/**
 * How the gateway picks the cluster that answers (federation.md §2):
 * by the `{uuid}` path segment, by `cluster_id`, always locally, or as a (federated) list.
 */
export type Routing = 'uuid' | 'cluster_id' | 'local' | 'list';

export interface Endpoint {
  /** `svc.<resource>.<name>` in discovery. */
  readonly resource: string;
  readonly name: string;
  /** The method listed in discovery. */
  readonly httpMethod: Exclude<HttpMethod, 'HEAD' | 'OPTIONS' | 'PATCH'>;
  /** Every method accepted (update also takes PATCH; HEAD is handled as GET). */
  readonly methods: readonly HttpMethod[];
  /** Relative to `/svc/v1/`; `{uuid}` matches one segment. */
  readonly path: string;
  /** Alternative forms of the same operation, not listed in discovery. */
  readonly altPaths?: readonly string[];
  readonly params: ParamSpecs;
  /** Create and update take the resource object. */
  readonly takesObject?: boolean;
  readonly response: string | null;
  /** Needs no token; a token sent is ignored and scopes do not apply (config, authenticate). */
  readonly public?: boolean;
  /** Answered by the gateway itself (login), not forwarded to a core. */
  readonly servedBy?: 'gateway';
  /** A request body other than the resource object (discovery `request`). */
  readonly requestSchema?: Readonly<Record<string, unknown>>;
  readonly routing: Routing;
  readonly description: string;
}

const p = (
  type: ParamSpec['type'],
  description: string,
  extra: Partial<ParamSpec> = {},
): ParamSpec => ({ type, location: 'query', required: false, description, ...extra });

const uuidParam: ParamSpec = {
  type: 'string',
  location: 'path',
  required: true,
  description: 'The object uuid',
};
const select = p('array', 'Attributes of each object to return');
const includeTrash = p('boolean', 'Include trashed and hidden objects', { default: 'false' });

/** The list parameter set of discovery.md §4. */
export function listParams(r: { type: string }): ParamSpecs {
  const params: Record<string, ParamSpec> = {
    limit: p('integer', 'Maximum number of items to return', { default: '100' }),
    offset: p('integer', 'Number of matching items to skip', { default: '0' }),
    filters: p('array', 'Conditions, all of which must hold'),
    order: p('array', 'Sort keys, each optionally followed by asc or desc'),
    select,
    distinct: p('boolean', 'Return each distinct selection once', { default: 'false' }),
    count: p('string', 'exact: include items_available; none: omit it', { default: 'exact' }),
    where: p('object', 'Legacy conditions: attribute to value'),
    cluster_id: p('string', 'List on this cluster'),
    bypass_federation: p('boolean', 'Admins: list locally only', { default: 'false' }),
  };
  if (['groups', 'collections', 'container_requests'].includes(r.type)) {
    params['include_trash'] = includeTrash;
  }
  if (r.type === 'collections') {
    params['include_old_versions'] = p('boolean', 'No effect in svc v1', { default: 'false' });
  }
  return params;
}

function standardEndpoints(r: ResourceSpec): Endpoint[] {
  const n = schemaName(r);
  const trashable = r.type === 'groups' || r.type === 'collections';
  const asyncParam: ParamSpecs =
    r.type === 'groups'
      ? { async: p('boolean', 'Defer the permission update; answer 202', { default: 'false' }) }
      : {};
  return [
    {
      resource: r.type,
      name: 'list',
      httpMethod: 'GET',
      methods: ['GET'],
      path: r.type,
      params: listParams(r),
      response: `${n}List`,
      routing: 'list',
      description: `List ${r.type}.`,
    },
    {
      resource: r.type,
      name: 'get',
      httpMethod: 'GET',
      methods: ['GET'],
      path: `${r.type}/{uuid}`,
      params: { uuid: uuidParam, select, ...(trashable ? { include_trash: includeTrash } : {}) },
      response: n,
      routing: 'uuid',
      description: `Get a ${r.singular}.`,
    },
    {
      resource: r.type,
      name: 'create',
      httpMethod: 'POST',
      methods: ['POST'],
      path: r.type,
      params: {
        select,
        ensure_unique_name: p('boolean', 'Rename instead of failing on a name clash', {
          default: 'false',
        }),
        cluster_id: p('string', 'Create the object on this cluster'),
        ...asyncParam,
      },
      takesObject: true,
      response: n,
      routing: 'cluster_id',
      description: `Create a ${r.singular}.`,
    },
    {
      resource: r.type,
      name: 'update',
      httpMethod: 'PUT',
      methods: ['PUT', 'PATCH'],
      path: `${r.type}/{uuid}`,
      params: { uuid: uuidParam, select, ...asyncParam },
      takesObject: true,
      response: n,
      routing: 'uuid',
      description: `Update a ${r.singular}.`,
    },
    {
      resource: r.type,
      name: 'delete',
      httpMethod: 'DELETE',
      methods: ['DELETE'],
      path: `${r.type}/{uuid}`,
      params: { uuid: uuidParam, select },
      response: n,
      routing: 'uuid',
      description: `Delete a ${r.singular}.`,
    },
  ];
}

const EXTRA_ENDPOINTS: readonly Endpoint[] = [
  {
    resource: 'users',
    name: 'current',
    httpMethod: 'GET',
    methods: ['GET'],
    path: 'users/current',
    params: {},
    response: 'User',
    routing: 'cluster_id',
    description: "The caller's own user record.",
  },
  {
    resource: 'users',
    name: 'system',
    httpMethod: 'GET',
    methods: ['GET'],
    path: 'users/system',
    params: {},
    response: 'User',
    routing: 'cluster_id',
    description: 'The system user.',
  },
  {
    resource: 'users',
    name: 'authenticate',
    httpMethod: 'POST',
    methods: ['POST'],
    path: 'users/authenticate',
    params: {},
    requestSchema: {
      required: true,
      properties: { username: { type: 'string' }, password: { type: 'string' } },
    },
    response: 'ApiClientAuthorization',
    public: true,
    servedBy: 'gateway',
    routing: 'local',
    description: 'Log in with a username and password checked by the login provider.',
  },
  {
    resource: 'api_client_authorizations',
    name: 'current',
    httpMethod: 'GET',
    methods: ['GET'],
    path: 'api_client_authorizations/current',
    params: {},
    response: 'ApiClientAuthorization',
    routing: 'cluster_id',
    description: "The calling token's own record.",
  },
  {
    resource: 'configs',
    name: 'get',
    httpMethod: 'GET',
    methods: ['GET'],
    path: 'config',
    params: {},
    response: null,
    public: true,
    routing: 'cluster_id',
    description: 'The public part of the cluster configuration.',
  },
];

/** Every operation the server serves under `/svc/v1`. */
export const ENDPOINTS: readonly Endpoint[] = [
  ...RESOURCES.flatMap(standardEndpoints),
  ...EXTRA_ENDPOINTS,
  ...CONTAINER_ENDPOINTS,
];

export const endpointId = (e: Endpoint): string => `svc.${e.resource}.${e.name}`;

/** The endpoint of a resource operation; throws for a name the table does not have. */
export function findEndpoint(resource: string, name: string): Endpoint {
  const e = ENDPOINTS.find((x) => x.resource === resource && x.name === name);
  if (!e) throw new Error(`no endpoint ${resource}.${name}`);
  return e;
}
