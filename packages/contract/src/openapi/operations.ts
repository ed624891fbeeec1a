import { endpointId, type Endpoint } from '../endpoints';
import type { HttpMethod } from '../params';
import { RESOURCES, schemaName } from '../registry';
import { parametersAt } from './parameters';
import { ref } from './schemas';

type Json = Record<string, unknown>;

const json = (schema: Json): Json => ({ 'application/json': { schema } });

/** Error answers (requests-and-errors.md §7), named once in `components.responses`. */
export const ERROR_RESPONSES: Readonly<Record<string, { name: string; description: string }>> = {
  '400': { name: 'BadRequest', description: 'A list that cannot be federated' },
  '401': { name: 'NotLoggedIn', description: 'No valid token ("Not logged in")' },
  '403': {
    name: 'Forbidden',
    description: 'The token or user may not do this (scopes, admin only, insufficient permission)',
  },
  '404': {
    name: 'NotFound',
    description: 'No such object, or not readable by the caller ("Object not found")',
  },
  '413': { name: 'PayloadTooLarge', description: 'Request body too large' },
  '422': {
    name: 'Unprocessable',
    description: 'Invalid input: parameters, filters, attributes, state changes, name clashes',
  },
  '500': { name: 'InternalError', description: 'Server fault, never caused by client input' },
  '502': {
    name: 'BadGateway',
    description: 'A remote cluster failed while this cluster needed its answer',
  },
};

function errorStatuses(e: Endpoint, method: HttpMethod): string[] {
  const statuses = ['404', '422', '500', '502'];
  if (!e.public || e.requestSchema) statuses.push('401');
  if (!e.public) statuses.push('403');
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') statuses.push('413');
  if (e.routing === 'list') statuses.push('400');
  return statuses.sort();
}

function successResponses(e: Endpoint): Json {
  if (e.noContent) return { '204': { description: e.description } };
  const schema = e.response ? ref(e.response) : { type: 'object' };
  const ok = {
    description: e.description,
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: json(schema),
  };
  // Groups with async=true answer 202 once the permission update is deferred (groups.md §9).
  return 'async' in e.params ? { '200': ok, '202': ok } : { '200': ok };
}

function requestBody(e: Endpoint): Json | undefined {
  const resource = e.attributesOf && RESOURCES.find((r) => r.type === e.attributesOf!.type);
  if (resource) {
    const schema = {
      type: 'object',
      description: `Also accepted bare (the attributes at the top level) or with the camelCase wrapper.`,
      properties: { [resource.singular]: ref(`${schemaName(resource)}Input`) },
      required: [resource.singular],
    };
    return { required: true, content: json(schema) };
  }
  if (e.requestSchema) {
    const properties = (e.requestSchema['properties'] ?? {}) as Json;
    const required = e.requestSchema['required'] === true ? Object.keys(properties) : [];
    return { required: true, content: json({ type: 'object', properties, required }) };
  }
  return undefined;
}

/** `svc.groups.update` for the listed form; alternative methods and paths get a suffix. */
function operationId(e: Endpoint, pathIndex: number, method: HttpMethod): string {
  const path = pathIndex > 0 ? `.path${pathIndex}` : '';
  const verb = method !== e.httpMethod ? `.${method.toLowerCase()}` : '';
  return `${endpointId(e)}${path}${verb}`;
}

/** One operation of an endpoint, at one of its paths, for one of its methods. */
export function operationObject(e: Endpoint, pathIndex: number, method: HttpMethod): Json {
  const path = pathIndex === 0 ? e.path : e.altPaths![pathIndex - 1]!;
  const body = requestBody(e);
  const errors = Object.fromEntries(
    errorStatuses(e, method).map((s) => [
      s,
      { $ref: `#/components/responses/${ERROR_RESPONSES[s]!.name}` },
    ]),
  );
  return {
    operationId: operationId(e, pathIndex, method),
    'x-svc-endpoint': endpointId(e),
    tags: [e.resource],
    summary: e.description,
    ...(e.public ? { security: [] } : {}),
    parameters: parametersAt(e, path),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponses(e), ...errors },
  };
}

/** Methods documented per endpoint: every accepted one but HEAD and OPTIONS (always allowed). */
export const documentedMethods = (e: Endpoint): HttpMethod[] =>
  e.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
