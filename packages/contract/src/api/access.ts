import {
  authorizedKeys,
  collections,
  credentials,
  keepServices,
  links,
  virtualMachines,
} from '../registry';
import type { ResourceSpec } from '../types';
import { listOf, localOnly, objectOf, op, plainJson, standardOps, type ItemList } from './ops';
import { LIST_PARAMS, query, requiredQuery, SELECT, UUID } from './params';
import type { HashList } from './users';

/** One shell login (docs/api/more-resources.md §4.3). */
export interface Login {
  username: string;
  hostname: string | null;
  groups: string[];
  public_key: string | null;
  user_uuid: string;
  virtual_machine_uuid: string;
  authorized_key_uuid: string | null;
}

/** A row of the materialized permission table (docs/api/more-resources.md §10.2). */
export interface ComputedPermission {
  kind: 'svc#computedPermission';
  user_uuid: string;
  target_uuid: string;
  perm_level: 'can_read' | 'can_write' | 'can_manage';
}

export const computedPermissionListResult = {
  schema: 'ComputedPermissionList',
} as { schema: string; type?: Omit<ItemList<ComputedPermission>, 'offset'> };

const agreementForm = { type: 'user_agreements', singular: 'user_agreement' };

/** Operations of a resource that only the home cluster answers (docs/api/more-resources.md §1.3). */
const localStandard = <R extends ResourceSpec>(r: R) => localOnly(standardOps(r));

export const authorizedKeyOps = standardOps(authorizedKeys);

export const virtualMachineOps = {
  ...localStandard(virtualMachines),
  logins: op({
    httpMethod: 'GET',
    path: 'virtual_machines/{uuid}/logins',
    params: { uuid: UUID },
    result: plainJson<HashList<Login>>(),
    routing: 'local',
    description: 'Admins: the shell logins of one virtual machine.',
  }),
  get_all_logins: op({
    httpMethod: 'GET',
    path: 'virtual_machines/get_all_logins',
    params: {},
    result: plainJson<HashList<Login>>(),
    routing: 'local',
    description: 'Admins: the shell logins of every virtual machine.',
  }),
};

export const userAgreementOps = {
  ...localOnly(standardOps(collections, {}, agreementForm)),
  signatures: op({
    httpMethod: 'GET',
    path: 'user_agreements/signatures',
    params: { uuid: query('string', 'Admins: the user whose signatures to list') },
    result: listOf(links),
    routing: 'local',
    description: "The caller's signatures of user agreements.",
  }),
  sign: op({
    httpMethod: 'POST',
    path: 'user_agreements/sign',
    params: { uuid: requiredQuery('string', 'The user agreement to sign') },
    result: objectOf(links),
    routing: 'local',
    description: 'Sign a user agreement.',
  }),
};

export const credentialOps = {
  ...localStandard(credentials),
  secret: op({
    httpMethod: 'GET',
    path: 'credentials/{uuid}/secret',
    params: { uuid: UUID },
    result: plainJson<{ external_id: string; secret: string }>(),
    routing: 'local',
    description: "A running container's own token: the credential's secret.",
  }),
};

export const getPermissionsOp = op({
  httpMethod: 'GET',
  path: 'permissions/{uuid}',
  params: { uuid: UUID, select: SELECT },
  result: listOf(links),
  routing: 'local',
  description: 'Managers: every permission link to an object.',
});

export const computedPermissionOps = {
  list: op({
    httpMethod: 'GET',
    path: 'computed_permissions',
    params: {
      filters: LIST_PARAMS.filters,
      where: LIST_PARAMS.where,
      order: LIST_PARAMS.order,
      select: LIST_PARAMS.select,
      distinct: LIST_PARAMS.distinct,
      limit: LIST_PARAMS.limit,
      count: query('string', 'none: the only value accepted', 'none'),
      offset: { ...LIST_PARAMS.offset, unlisted: true },
    },
    result: computedPermissionListResult,
    routing: 'local',
    description: "Admins: rows of the materialized permission table (each user's levels).",
  }),
};

const keepServiceOps = standardOps(keepServices);
export const keepServiceWrites = localOnly({
  create: keepServiceOps.create,
  update: keepServiceOps.update,
  delete: keepServiceOps.delete,
});
