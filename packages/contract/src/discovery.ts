import { ENDPOINTS, endpointId, type Endpoint } from './endpoints';
import { RESOURCES, schemaName } from './registry';
import type { ParamSpec } from './params';
import type { AttributeSpec, ResourceSpec } from './types';

/** Deployment facts the document publishes (discovery.md §2). */
export interface DiscoveryInputs {
  rootUrl: string;
  clusterId: string;
  maxItemsPerResponse: number;
  maxRequestSize: number;
  defaultReplication: number;
  blobSigningTtl: number;
  remoteHosts: Record<string, string>;
}

export const DISCOVERY_REVISION = '20261128';

/** Property schema of an attribute (discovery.md §3). */
export function propertySchema(a: AttributeSpec): Record<string, unknown> {
  const described = a.description ? { description: a.description } : {};
  switch (a.type) {
    case 'string':
    case 'text':
      return { type: 'string', ...described };
    case 'datetime':
      return { type: 'string', format: 'date-time', ...described };
    case 'integer':
      return { type: 'integer', format: 'int64', ...described };
    case 'float':
      return { type: 'number', ...described };
    case 'boolean':
      return { type: 'boolean', ...described };
    case 'hash':
      return { type: 'object', ...described };
    case 'array':
      return {
        type: 'array',
        items: { type: a.items === 'hash' ? 'object' : 'string' },
        ...described,
      };
  }
}

function resourceSchemas(r: ResourceSpec): Record<string, unknown> {
  const name = schemaName(r);
  const properties: Record<string, unknown> = {};
  for (const [attr, spec] of Object.entries(r.attributes)) {
    if (!spec.secret) properties[attr] = propertySchema(spec);
  }
  return {
    [name]: {
      id: name,
      type: 'object',
      uuidPrefix: r.infix,
      description: r.description,
      properties,
    },
    [`${name}List`]: {
      id: `${name}List`,
      type: 'object',
      description: `A list of ${r.type}.`,
      properties: {
        kind: { type: 'string', default: `${r.kind}List` },
        offset: { type: 'integer' },
        limit: { type: 'integer' },
        items_available: { type: 'integer' },
        items: { type: 'array', items: { $ref: name } },
      },
    },
  };
}

const objectListSchema = {
  ObjectList: {
    id: 'ObjectList',
    type: 'object',
    description: 'Objects of several types.',
    properties: {
      kind: { type: 'string', default: 'svc#objectList' },
      offset: { type: 'integer' },
      limit: { type: 'integer' },
      items_available: { type: 'integer' },
      items: { type: 'array', items: { type: 'object' } },
      included: { type: 'array', items: { type: 'object' } },
    },
  },
};

/** Rows of the permission table: no uuid, no offset (docs/api/more-resources.md §10.2, §14). */
const str = { type: 'string' };
export const COMPUTED_PERMISSION_PROPERTIES = {
  kind: { type: 'string', default: 'svc#computedPermission' },
  user_uuid: str,
  target_uuid: str,
  perm_level: { type: 'string', description: 'can_read, can_write or can_manage' },
};
const computedPermissionSchemas = {
  ComputedPermission: {
    id: 'ComputedPermission',
    type: 'object',
    description: "A user's highest level on a group, user or link head.",
    properties: COMPUTED_PERMISSION_PROPERTIES,
  },
  ComputedPermissionList: {
    id: 'ComputedPermissionList',
    type: 'object',
    description: 'Rows of the materialized permission table.',
    properties: {
      kind: { type: 'string', default: 'svc#computedPermissionList' },
      limit: { type: 'integer' },
      items: { type: 'array', items: { $ref: 'ComputedPermission' } },
    },
  },
};

function parameterJson(spec: ParamSpec): Record<string, unknown> {
  return {
    type: spec.type,
    location: spec.location,
    required: spec.required ?? false,
    description: spec.description,
    ...(spec.default !== undefined ? { default: spec.default } : {}),
    ...(spec.type === 'array' ? { items: { type: 'string' } } : {}),
  };
}

function methodJson(e: Endpoint, scope: string): Record<string, unknown> {
  const singular = e.wrapper ?? e.attributesOf?.singular;
  const parameters = Object.fromEntries(
    Object.entries(e.params)
      .filter(([, v]) => !v.unlisted)
      .map(([k, v]) => [k, parameterJson(v)]),
  );
  return {
    id: endpointId(e),
    path: e.path,
    httpMethod: e.httpMethod,
    description: e.description,
    parameters,
    parameterOrder: e.path.includes('{uuid}') ? ['uuid'] : [],
    ...(e.attributesOf && singular && e.response
      ? { request: { required: true, properties: { [singular]: { $ref: e.response } } } }
      : {}),
    ...(e.requestSchema ? { request: e.requestSchema } : {}),
    // Every method carries `response` (discovery.md §4): without it, discovery-driven clients
    // hand back raw bytes instead of parsed JSON.
    response: e.response ? { $ref: e.response } : {},
    scopes: [scope],
  };
}

/** The "discovery#restDescription" document for the endpoints the server serves. */
export function buildDiscovery(inputs: DiscoveryInputs): Record<string, unknown> {
  const root = inputs.rootUrl.endsWith('/') ? inputs.rootUrl : `${inputs.rootUrl}/`;
  const scope = `${root}auth/svc`;
  const resources: Record<string, { methods: Record<string, unknown> }> = {};
  for (const e of ENDPOINTS) {
    resources[e.resource] ??= { methods: {} };
    resources[e.resource]!.methods[e.name] = methodJson(e, scope);
  }
  const schemas = Object.assign(
    {},
    ...RESOURCES.map(resourceSchemas),
    objectListSchema,
    computedPermissionSchemas,
  );
  return {
    kind: 'discovery#restDescription',
    discoveryVersion: 'v1',
    id: 'svc:v1',
    name: 'svc',
    version: 'v1',
    revision: DISCOVERY_REVISION,
    title: 'svc API',
    description: 'The API of a federated compute-and-data cluster.',
    protocol: 'rest',
    rootUrl: root,
    servicePath: 'svc/v1/',
    basePath: '/svc/v1/',
    baseUrl: `${root}svc/v1/`,
    batchPath: 'batch',
    uuidPrefix: inputs.clusterId,
    maxItemsPerResponse: inputs.maxItemsPerResponse,
    maxRequestSize: inputs.maxRequestSize,
    defaultCollectionReplication: inputs.defaultReplication,
    blobSignatureTtl: inputs.blobSigningTtl,
    defaultTrashLifetime: inputs.blobSigningTtl,
    remoteHosts: inputs.remoteHosts,
    remoteHostsViaDNS: false,
    websocketUrl: '',
    parameters: {
      alt: { type: 'string', location: 'query', default: 'json', enum: ['json'] },
      fields: { type: 'string', location: 'query' },
      key: { type: 'string', location: 'query' },
      oauth_token: { type: 'string', location: 'query' },
    },
    auth: {
      oauth2: {
        scopes: {
          [`${root}auth/svc`]: { description: 'View and manage objects' },
          [`${root}auth/svc.readonly`]: { description: 'View objects' },
        },
      },
    },
    schemas,
    resources,
  };
}
