import { DISCOVERY_REVISION } from '../discovery';
import { ENDPOINTS } from '../endpoints';
import { documentedMethods, ERROR_RESPONSES, operationObject } from './operations';
import { componentSchemas, ref } from './schemas';

type Json = Record<string, unknown>;

export interface OpenApiInputs {
  /**
   * Base URL of the API, ending in `/svc/v1`. A relative one (`/svc/v1`) is resolved against
   * the address the document was fetched from.
   */
  serverUrl: string;
}

export const OPENAPI_VERSION = '3.1.0';

/** Every served path and method, from the same endpoint table as routing and discovery. */
function paths(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const e of ENDPOINTS) {
    [e.path, ...(e.altPaths ?? [])].forEach((path, index) => {
      const item = (out[`/${path}`] ??= {});
      for (const method of documentedMethods(e)) {
        item[method.toLowerCase()] = operationObject(e, index, method);
      }
    });
  }
  return out;
}

function errorResponses(): Json {
  return Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(({ name, description }) => [
      name,
      { description, content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
}

/** The OpenAPI 3.1 description of the svc API. */
export function buildOpenApi(inputs: OpenApiInputs): Json {
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'svc API',
      version: `v1 (revision ${DISCOVERY_REVISION})`,
      description:
        'The API of a federated compute-and-data cluster. Parameters may also be sent in a JSON or form body; array and object parameters are JSON-encoded in the query. Every error answers the Error schema.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: inputs.serverUrl }],
    security: [{ bearerToken: [] }, { apiTokenParameter: [] }],
    tags: [...new Set(ENDPOINTS.map((e) => e.resource))].map((name) => ({ name })),
    paths: paths(),
    components: {
      schemas: componentSchemas(),
      responses: errorResponses(),
      headers: {
        'X-Request-Id': {
          description: 'The request id: echoed from the request, or generated',
          schema: { type: 'string' },
        },
      },
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token: `v2/<token uuid>/<secret>`, or the bare secret',
        },
        apiTokenParameter: { type: 'apiKey', in: 'query', name: 'api_token' },
      },
    },
  };
}
