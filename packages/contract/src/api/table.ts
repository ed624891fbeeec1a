import {
  apiClientAuthorizations,
  apiClients,
  collections,
  containerRequests,
  containers,
  groups,
  keepServices,
  links,
  logs,
  users,
  workflows,
} from '../registry';
import { containerOps } from './containers';
import { groupContentOps } from './groups';
import { bodyFields, listOf, objectOf, op, plainJson, standardOps } from './ops';
import { ASYNC, INCLUDE_OLD_VERSIONS, INCLUDE_TRASH } from './params';
import { trashOps } from './trash';

/** Operations the gateway answers itself, from its configuration and the request. */
const BY_GATEWAY = { servedBy: 'gateway', routing: 'local' } as const;

/** The public configuration (discovery.md §5); its shape is the configuration's. */
export type PublicConfig = Record<string, unknown> & { ClusterID: string };

/**
 * Every operation the server serves under `/svc/v1`, by resource type then name
 * (`svc.<type>.<name>` in discovery). Routing, the core's handlers, discovery, the gateway's
 * parser and the typed interface (`SvcApi`) are all read from this table.
 */
export const API = {
  users: {
    ...standardOps(users),
    current: op({
      httpMethod: 'GET',
      path: 'users/current',
      params: {},
      result: objectOf(users),
      routing: 'cluster_id',
      description: "The caller's own user record.",
    }),
    system: op({
      httpMethod: 'GET',
      path: 'users/system',
      params: {},
      result: objectOf(users),
      routing: 'cluster_id',
      description: 'The system user.',
    }),
    authenticate: op({
      httpMethod: 'POST',
      path: 'users/authenticate',
      params: {},
      body: bodyFields<{ username: string; password: string }>({
        required: true,
        properties: { username: { type: 'string' }, password: { type: 'string' } },
      }),
      result: objectOf(apiClientAuthorizations),
      public: true,
      servedBy: 'gateway',
      routing: 'local',
      description: 'Log in with a username and password checked by the login provider.',
    }),
  },
  groups: {
    ...standardOps(groups, {
      list: { include_trash: INCLUDE_TRASH },
      get: { include_trash: INCLUDE_TRASH },
      create: { async: ASYNC },
      update: { async: ASYNC },
    }),
    ...groupContentOps,
    ...trashOps(groups),
  },
  collections: {
    ...standardOps(collections, {
      list: { include_trash: INCLUDE_TRASH, include_old_versions: INCLUDE_OLD_VERSIONS },
      get: { include_trash: INCLUDE_TRASH },
    }),
    ...trashOps(collections),
  },
  container_requests: standardOps(containerRequests, { list: { include_trash: INCLUDE_TRASH } }),
  containers: { ...standardOps(containers), ...containerOps },
  links: standardOps(links),
  workflows: standardOps(workflows),
  api_client_authorizations: {
    ...standardOps(apiClientAuthorizations),
    current: op({
      httpMethod: 'GET',
      path: 'api_client_authorizations/current',
      params: {},
      result: objectOf(apiClientAuthorizations),
      routing: 'cluster_id',
      description: "The calling token's own record.",
    }),
  },
  api_clients: standardOps(apiClients),
  logs: standardOps(logs),
  keep_services: {
    list: { ...standardOps(keepServices).list, ...BY_GATEWAY },
    get: { ...standardOps(keepServices).get, ...BY_GATEWAY },
    accessible: op({
      httpMethod: 'GET',
      path: 'keep_services/accessible',
      params: {},
      result: listOf(keepServices),
      public: true,
      ...BY_GATEWAY,
      description: 'The block services a client should use.',
    }),
  },
  openapi: {
    get: op({
      httpMethod: 'GET',
      path: 'openapi.json',
      params: {},
      result: plainJson<Record<string, unknown>>(),
      public: true,
      ...BY_GATEWAY,
      description: 'The OpenAPI 3.1 description of this API.',
    }),
  },
  configs: {
    get: op({
      httpMethod: 'GET',
      path: 'config',
      params: {},
      result: plainJson<PublicConfig>(),
      public: true,
      servedBy: 'gateway',
      routing: 'cluster_id',
      description: 'The public part of the cluster configuration.',
    }),
  },
};
