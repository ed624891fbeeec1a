import type { ResourceSpec } from './types';
import { users } from './resources/users';
import { groups } from './resources/groups';
import { collections } from './resources/collections';
import { containerRequests } from './resources/container-requests';
import { containers } from './resources/containers';
import { links } from './resources/links';
import { workflows } from './resources/workflows';
import { apiClientAuthorizations } from './resources/api-client-authorizations';
import { apiClients } from './resources/api-clients';
import { logs } from './resources/logs';
import { keepServices } from './resources/keep-services';
import { authorizedKeys } from './resources/authorized-keys';
import { virtualMachines } from './resources/virtual-machines';
import { credentials } from './resources/credentials';

export {
  users,
  groups,
  collections,
  containerRequests,
  containers,
  links,
  workflows,
  apiClientAuthorizations,
  apiClients,
  logs,
  keepServices,
  authorizedKeys,
  virtualMachines,
  credentials,
};

/** Every resource type, in the order of requests-and-errors.md §1, then docs/api/more-resources.md §1.1. */
export const RESOURCES: readonly ResourceSpec[] = [
  users,
  groups,
  collections,
  containerRequests,
  containers,
  links,
  workflows,
  apiClientAuthorizations,
  apiClients,
  logs,
  keepServices,
  authorizedKeys,
  virtualMachines,
  credentials,
];

for (const r of RESOURCES) {
  // Infixes are written into SQL text (permissions' kind tests): keep them to their shape.
  if (!/^[0-9a-z]{5}$/.test(r.infix)) throw new Error(`bad uuid infix ${r.infix} of ${r.type}`);
}
const byType = new Map(RESOURCES.map((r) => [r.type, r]));
const byInfix = new Map(RESOURCES.map((r) => [r.infix, r]));
const byKind = new Map<string, ResourceSpec>();
for (const r of RESOURCES) {
  byKind.set(r.kind, r);
  byKind.set(`svc#${r.singular}`, r);
}

/** The uuid infix at characters 7–11 tells the object type (requests-and-errors.md §9). */
export const infixOf = (uuid: string): string => uuid.slice(6, 11);
/** The resource a uuid names, by its infix; undefined for an unknown infix. */
export const resourceOfUuid = (uuid: string): ResourceSpec | undefined =>
  byInfix.get(infixOf(uuid));
/** Does this uuid name an object of that resource? */
export const isUuidOf = (r: ResourceSpec, uuid: string): boolean => infixOf(uuid) === r.infix;

export const resourceByType = (type: string): ResourceSpec | undefined => byType.get(type);
export const resourceByInfix = (infix: string): ResourceSpec | undefined => byInfix.get(infix);
/** Accepts the camelCase kind (`svc#containerRequest`) and the snake_case one alike. */
export const resourceByKind = (kind: string): ResourceSpec | undefined => byKind.get(kind);

/** `ContainerRequest`: the discovery schema name of a resource. */
export const schemaName = (r: ResourceSpec): string =>
  r.singular
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** `containerRequest`: the camelCase singular, also accepted as a body wrapper. */
export const camelSingular = (r: ResourceSpec): string => {
  const name = schemaName(r);
  return name.charAt(0).toLowerCase() + name.slice(1);
};
