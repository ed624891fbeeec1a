import { validate, compileErrors } from '@readme/openapi-parser';
import { ENDPOINTS, endpointId } from '../endpoints';
import { RESOURCES, schemaName } from '../registry';
import { buildOpenApi } from './index';
import { documentedMethods } from './operations';
import { parametersAt } from './parameters';
import { findEndpoint } from '../endpoints';

type Json = Record<string, any>;
const doc = (): Json => buildOpenApi({ serverUrl: '/svc/v1' });

/** Each endpoint's path and method the document does not describe as that endpoint. */
function missingEndpoints(d: Json): string[] {
  const missing: string[] = [];
  for (const e of ENDPOINTS) {
    for (const path of [e.path, ...(e.altPaths ?? [])]) {
      for (const method of documentedMethods(e)) {
        const op = d['paths'][`/${path}`]?.[method.toLowerCase()];
        if (op?.['x-svc-endpoint'] !== endpointId(e)) missing.push(`${method} /${path}`);
      }
    }
  }
  return missing;
}

describe('the OpenAPI 3.1 document', () => {
  it('is valid OpenAPI 3.1 to a real validator', async () => {
    const result = await validate(structuredClone(doc()) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.warnings).toEqual([]);
    expect(doc()['openapi']).toBe('3.1.0');
    // The validator does catch a broken document: a dangling $ref and a bad parameter.
    const broken = doc();
    broken['paths']['/groups']['get'].responses['200'].content['application/json'].schema = {
      $ref: '#/components/schemas/Nope',
    };
    broken['paths']['/links']['get'].parameters[0].in = 'body';
    const refused = await validate(broken as never);
    expect(refused.valid).toBe(false);
  });

  it('describes every endpoint of the table at every path and method it is served on', () => {
    const d = doc();
    expect(missingEndpoints(d)).toEqual([]);
    // The check fails on a missing path: take one out and it is reported.
    delete d['paths']['/groups/{uuid}']['patch'];
    expect(missingEndpoints(d)).toEqual(['PATCH /groups/{uuid}']);
    const ids = Object.values<Json>(doc()['paths']).flatMap((item) =>
      Object.values<Json>(item).map((op) => op['operationId']),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(ENDPOINTS.map(endpointId)));
  });

  it('gives parameters their types and defaults; arrays and objects JSON-encoded', () => {
    const list = doc()['paths']['/groups']['get'];
    const param = (name: string) => list.parameters.find((p: Json) => p['name'] === name);
    expect(param('limit')).toMatchObject({
      in: 'query',
      schema: { type: 'integer', default: 100 },
    });
    expect(param('offset').schema).toEqual({ type: 'integer', minimum: 0, default: 0 });
    expect(param('include_trash').schema).toEqual({ type: 'boolean', default: false });
    expect(param('count').schema).toEqual({ type: 'string', default: 'exact' });
    expect(param('filters').content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Filters',
    });
    expect(param('select').content['application/json'].schema).toEqual({
      type: 'array',
      items: { type: 'string' },
    });
    expect(param('where').content['application/json'].schema).toEqual({ type: 'object' });
    const get = doc()['paths']['/groups/{uuid}']['get'];
    expect(get.parameters[0]).toMatchObject({ name: 'uuid', in: 'path', required: true });
  });

  it('makes a query parameter a path parameter at an alternative path that names it', () => {
    const list = findEndpoint('groups', 'list');
    const contents = {
      ...list,
      params: {
        ...list.params,
        uuid: { type: 'string', location: 'query', description: 'Project' },
      },
    } as const;
    const at = (path: string) => parametersAt(contents, path).filter((p) => p['name'] === 'uuid');
    expect(at('groups/contents')).toEqual([
      expect.objectContaining({ in: 'query', required: false }),
    ]);
    expect(at('groups/{uuid}/contents')).toEqual([
      expect.objectContaining({ in: 'path', required: true }),
    ]);
  });

  it('takes create and update bodies wrapped in the singular, update by PUT and PATCH', () => {
    const item = doc()['paths']['/container_requests/{uuid}'];
    for (const method of ['put', 'patch']) {
      expect(item[method].requestBody.content['application/json'].schema).toMatchObject({
        properties: {
          container_request: { $ref: '#/components/schemas/ContainerRequestInput' },
        },
        required: ['container_request'],
      });
    }
    expect(item.put.operationId).toBe('svc.container_requests.update');
    expect(item.patch.operationId).toBe('svc.container_requests.update.patch');
    const auth = doc()['paths']['/users/authenticate']['post'];
    expect(auth.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'password',
    ]);
  });

  it('has a response schema per resource, the error shape, its statuses and the bearer scheme', () => {
    const d = doc();
    for (const r of RESOURCES) {
      const name = schemaName(r);
      const rendered = Object.keys(r.attributes).filter((a) => !r.attributes[a]!.secret);
      expect(Object.keys(d['components']['schemas'][name].properties).sort()).toEqual(
        rendered.sort(),
      );
      const input = Object.keys(d['components']['schemas'][`${name}Input`].properties);
      expect(input).not.toContain('etag');
      expect(d['paths'][`/${r.type}/{uuid}`]['get'].responses['200'].content).toEqual({
        'application/json': { schema: { $ref: `#/components/schemas/${name}` } },
      });
      expect(d['paths'][`/${r.type}`]['get'].responses['200'].content).toEqual({
        'application/json': { schema: { $ref: `#/components/schemas/${name}List` } },
      });
    }
    expect(d['components']['schemas']['Group'].properties.trash_at.type).toEqual([
      'string',
      'null',
    ]);
    expect(d['components']['schemas']['Error'].required).toEqual(['errors', 'error_token']);
    const get = d['paths']['/collections/{uuid}']['get'];
    expect(Object.keys(get.responses)).toEqual(
      expect.arrayContaining(['200', '401', '403', '404', '422']),
    );
    expect(get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(d['paths']['/groups']['post'].responses['202']).toBeDefined();
    expect(d['components']['securitySchemes']['bearerToken']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(d['paths']['/config']['get'].security).toEqual([]);
    expect(d['paths']['/config']['get'].responses['401']).toBeUndefined();
  });
});
