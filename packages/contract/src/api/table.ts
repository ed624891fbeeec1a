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
import {
  authorizedKeyOps,
  computedPermissionOps,
  credentialOps,
  getPermissionsOp,
  keepServiceWrites,
  userAgreementOps,
  virtualMachineOps,
} from './access';
import { containerOps } from './containers';
import { groupContentOps } from './groups';
import { listOf, localOnly, objectOf, op, plainJson, standardOps } from './ops';
import {
  containerStatusOp,
  createSystemAuthOp,
  provenanceOps,
  sysOps,
  updatePriorityOp,
  vocabularyOps,
} from './system';
import { userOps } from './users';
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
  users: { ...standardOps(users), ...userOps },
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
    ...provenanceOps,
  },
  container_requests: {
    ...standardOps(containerRequests, { list: { include_trash: INCLUDE_TRASH } }),
    container_status: containerStatusOp,
  },
  containers: { ...standardOps(containers), ...containerOps, update_priority: updatePriorityOp },
  links: { ...standardOps(links), get_permissions: getPermissionsOp },
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
    create_system_auth: createSystemAuthOp,
  },
  api_clients: standardOps(apiClients),
  logs: standardOps(logs),
  keep_services: {
    ...localOnly({ list: standardOps(keepServices).list, get: standardOps(keepServices).get }),
    accessible: op({
      httpMethod: 'GET',
      path: 'keep_services/accessible',
      params: {},
      result: listOf(keepServices),
      public: true,
      routing: 'local',
      description: 'The block services a client should use.',
    }),
    ...keepServiceWrites,
  },
  authorized_keys: authorizedKeyOps,
  virtual_machines: virtualMachineOps,
  user_agreements: userAgreementOps,
  credentials: credentialOps,
  computed_permissions: computedPermissionOps,
  sys: sysOps,
  vocabularies: vocabularyOps,
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
