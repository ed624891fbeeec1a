import {
  API,
  attributeOf,
  camelSingular,
  endpointById,
  resourceByType,
  resourceOfUuid,
  type Endpoint,
  type ResourceSpec,
} from '@svc/contract';
import { usageError } from './exit-codes';

/** Resource types that have the operation, straight from the API table. */
export const typesWith = (operation: string): string[] =>
  Object.entries(API)
    .filter(([type, ops]) => operation in ops && resourceByType(type) !== undefined)
    .map(([type]) => type);

/** A type as people write it: `collections`, `collection` or `containerRequest`. */
export function resolveType(name: string, operation: string): ResourceSpec {
  const known = typesWith(operation);
  const r = known
    .map((t) => resourceByType(t)!)
    .find((x) => [x.type, x.singular, camelSingular(x)].includes(name));
  if (!r) throw usageError(`unknown type '${name}'; types: ${known.join(', ')}`);
  return r;
}

const PDH = /^[0-9a-f]{32}\+[0-9]+(\+\S*)?$/;

/** The type of the object a uuid names (its infix), or collections for a portable data hash. */
export function resourceOfId(id: string): ResourceSpec {
  const r = PDH.test(id) ? resourceByType('collections') : resourceOfUuid(id);
  if (!r || !/^[0-9a-z]{5}-[0-9a-z]{5}-[0-9a-z]{15}$|^[0-9a-f]{32}\+/.test(id)) {
    throw usageError(`'${id}' is not the uuid of an object of a known type`);
  }
  return r;
}

/** The endpoint of an operation on a type, or a usage error if the type has none. */
export function endpointFor(r: ResourceSpec, operation: string): Endpoint {
  const e = endpointById(`svc.${r.type}.${operation}`);
  if (!e) throw usageError(`${r.type} have no ${operation} operation`);
  return e;
}

/** Checks the names given to --select against the type's attributes. */
export function checkAttributes(r: ResourceSpec, names: string[], what: string): void {
  for (const name of names) {
    const a = attributeOf(r, name);
    if (!a || a.secret) {
      throw usageError(`unknown attribute '${name}' in ${what} for ${r.type}`);
    }
  }
}

/** Columns a table of this type shows when --select does not say. */
export function defaultColumns(r: ResourceSpec): string[] {
  const preferred = [
    'name',
    'username',
    'email',
    'portable_data_hash',
    'link_class',
    'group_class',
    'head_uuid',
    'tail_uuid',
    'state',
    'event_type',
    'object_uuid',
  ];
  const shown = preferred.filter((a) => attributeOf(r, a) !== undefined).slice(0, 3);
  return ['uuid', ...shown, 'modified_at'];
}
