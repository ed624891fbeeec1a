import { API, type Op, type Routing } from './api';
import type { HttpMethod, ParamSpecs } from './params';
import type { ResourceSpec } from './types';

export type { Routing };

/** One row of the endpoint table: an operation of `API` with its resource and name. */
export interface Endpoint {
  /** `svc.<resource>.<name>`, unless the table gives another (discovery's `id`). */
  readonly id: string;
  readonly resource: string;
  readonly name: string;
  /** The method listed in discovery. */
  readonly httpMethod: Op['httpMethod'];
  /** Every method accepted (update also takes PATCH; HEAD is handled as GET). */
  readonly methods: readonly HttpMethod[];
  readonly path: string;
  readonly altPaths?: readonly string[];
  readonly params: ParamSpecs;
  /** Create and update take an object of this resource (wrapped or bare). */
  readonly attributesOf?: ResourceSpec;
  /** The body's wrapper key, when not attributesOf's singular. */
  readonly wrapper?: string;
  /** Discovery schema of the answer; null where there is none (`"response": {}`). */
  readonly response: string | null;
  /** Answers 204 with no body. */
  readonly noContent?: boolean;
  readonly public?: boolean;
  readonly servedBy?: 'gateway';
  /** A request body other than the resource object (discovery `request`). */
  readonly requestSchema?: Readonly<Record<string, unknown>>;
  readonly routing: Routing;
  readonly description: string;
}

function endpointOf(resource: string, name: string, o: Op): Endpoint {
  return {
    id: o.id ?? `svc.${resource}.${name}`,
    resource,
    name,
    httpMethod: o.httpMethod,
    methods: o.methods ?? [o.httpMethod],
    path: o.path,
    ...(o.altPaths ? { altPaths: o.altPaths } : {}),
    params: o.params,
    ...(o.attributesOf ? { attributesOf: o.attributesOf } : {}),
    ...(o.wrapper ? { wrapper: o.wrapper } : {}),
    response: o.result.schema,
    ...(o.noContent ? { noContent: true } : {}),
    ...(o.public ? { public: true } : {}),
    ...(o.servedBy ? { servedBy: o.servedBy } : {}),
    ...(o.body ? { requestSchema: o.body.schema } : {}),
    routing: o.routing,
    description: o.description,
  };
}

/** Every operation the server serves under `/svc/v1`, flattened from the API table. */
export const ENDPOINTS: readonly Endpoint[] = Object.entries(API).flatMap(([resource, ops]) =>
  Object.entries(ops as Record<string, Op>).map(([name, o]) => endpointOf(resource, name, o)),
);

export const endpointId = (e: Endpoint): string => e.id;

/** By id, and by `svc.<resource>.<name>` where the id differs (the typed interface's name). */
const BY_ID = new Map(
  ENDPOINTS.flatMap((e) => [[e.id, e] as const, [`svc.${e.resource}.${e.name}`, e] as const]),
);

/** The endpoint of an id or of `svc.<resource>.<name>`, or undefined. */
export const endpointById = (id: string): Endpoint | undefined => BY_ID.get(id);

/** The endpoint of a resource operation; throws for a name the table does not have. */
export function findEndpoint(resource: string, name: string): Endpoint {
  const e = BY_ID.get(`svc.${resource}.${name}`);
  if (!e) throw new Error(`no endpoint ${resource}.${name}`);
  return e;
}
