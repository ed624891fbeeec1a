import { EndpointNotFoundError, MethodNotAllowedError, UnprocessableError } from '@svc/errors';
import { authorizationToken } from '@svc/ids';
import { endpointId, type Endpoint } from '../endpoints';
import { msg } from '../messages';
import {
  checkJsonDepth,
  convertParam,
  effectiveMethod,
  mergeParams,
  methodParamOf,
  toObject,
  type ParsedBody,
} from '../params';
import { checkStorableAttribute } from '../params/storable';
import { camelSingular } from '../registry';
import { matchRoute, type RouteMatch } from '../routes';

/** The parts of an HTTP request the API reads, taken from it once by the HTTP layer. */
export interface RequestParts {
  method: string;
  pathname: string;
  /** Query parameters, the last value of each name. */
  query: Record<string, unknown>;
  body: ParsedBody;
  methodOverride: string | undefined;
  authorization: string | undefined;
}

/**
 * A request matched to its operation, before anything is converted: what authentication and
 * the scope check need, and the raw parameters for `toCall`.
 */
export interface ParsedRequest {
  endpoint: Endpoint;
  /** The method it is handled as (method override applied, requests-and-errors.md §2). */
  method: string;
  /** Path variables win over the JSON body, the body over a form, a form over the query. */
  params: Record<string, unknown>;
  /** A JSON body's own keys (a bare create or update body is read from it). */
  jsonBody: Record<string, unknown> | null;
  /** A body that is JSON but not an object: 422, after the token and scope checks. */
  bodyError: string | null;
  /** The presented token (auth.md §1); '' for an Authorization header that holds none. */
  token: string | null;
  /** `remote=<id>`, honoured only by the two `current` operations (auth.md §3). */
  remote: string | null;
  /** `forwarded_for=<id>`: the request was forwarded by another cluster (federation.md §2). */
  forwardedFor: string | null;
}

function endpointOf(match: RouteMatch): Extract<RouteMatch, { kind: 'endpoint' }> {
  if (match.kind === 'not-found') throw new EndpointNotFoundError();
  if (match.kind === 'method-not-allowed') throw new MethodNotAllowedError();
  return match;
}

/**
 * The route check that comes before reading the body (404, and 405 unless a POST may still be
 * overridden), so an unknown route is refused before a large body is read.
 */
export function preRoute(method: string, pathname: string): void {
  const match = matchRoute(method, pathname);
  if (match.kind === 'not-found') throw new EndpointNotFoundError();
  if (method.toUpperCase() !== 'POST') endpointOf(match);
}

/**
 * The presented token (auth.md §1): `Authorization: Bearer|OAuth2 <token>`, else the
 * `api_token` parameter. A header that is present decides, even if its token is bad.
 */
export function presentedToken(
  authorization: string | undefined,
  params: Readonly<Record<string, unknown>>,
): string | null {
  if (authorization !== undefined) return authorizationToken(authorization) ?? '';
  const param = params['api_token'];
  return typeof param === 'string' ? param : null;
}

const CURRENT_IDS = new Set(['svc.users.current', 'svc.api_client_authorizations.current']);

const stringParam = (params: Record<string, unknown>, name: string): string | null => {
  const v = params[name];
  return typeof v === 'string' && v !== '' ? v : null;
};

/** Matches a request to its operation and merges its parameters (404/405). */
export function parseRequest(parts: RequestParts): ParsedRequest {
  const method = effectiveMethod(
    parts.method,
    methodParamOf(parts.query, parts.body.fields),
    parts.methodOverride,
  );
  const { endpoint, path } = endpointOf(matchRoute(method, parts.pathname));
  const params = mergeParams({
    query: parts.query,
    body: parts.body.fields,
    bodyKind: parts.body.kind,
    path,
  });
  return {
    endpoint,
    method,
    params,
    jsonBody: parts.body.kind === 'json' ? parts.body.fields : null,
    bodyError: parts.body.error,
    token: presentedToken(parts.authorization, params),
    remote: CURRENT_IDS.has(endpointId(endpoint)) ? stringParam(params, 'remote') : null,
    forwardedFor: stringParam(params, 'forwarded_for'),
  };
}

/** Names that are never attributes of a bare body, whatever the method. */
const GENERAL_PARAMS = new Set([
  '_method',
  'alt',
  'fields',
  'key',
  'oauth_token',
  'api_token',
  'forwarded_for',
  'remote',
]);

/**
 * The attributes of a create or update (requests-and-errors.md §4): the `<singular>` (or
 * camelCase) wrapper, else every top-level key of a JSON body that is not a parameter.
 */
function attributesOf(p: ParsedRequest): Record<string, unknown> {
  const r = p.endpoint.attributesOf!;
  const singular = p.endpoint.wrapper ?? r.singular;
  const keys = p.endpoint.wrapper ? [singular] : [r.singular, camelSingular(r)];
  for (const key of keys) {
    if (!(key in p.params)) continue;
    const wrapped = toObject(p.params[key]);
    if (wrapped === undefined) throw new UnprocessableError(msg.noWrapperHash(singular));
    return { ...wrapped };
  }
  const attrs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(p.jsonBody ?? {})) {
    if (key in p.endpoint.params || GENERAL_PARAMS.has(key)) continue;
    attrs[key] = value;
  }
  return attrs;
}

/**
 * The call's typed options (422 "parameter parsing"): every declared parameter converted by
 * its type (requests-and-errors.md §3), absent ones left out, and a create or update's
 * attributes. Names the operation does not declare are ignored.
 */
export function typedOptions(p: ParsedRequest): Record<string, unknown> {
  if (p.bodyError) throw new UnprocessableError(p.bodyError);
  const options: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(p.endpoint.params)) {
    const value = convertParam(name, spec.type, p.params[name]);
    if (value === undefined) continue;
    checkJsonDepth(name, value);
    options[name] = value;
  }
  if (p.endpoint.attributesOf) {
    const attributes = attributesOf(p);
    for (const [name, value] of Object.entries(attributes)) checkStorableAttribute(name, value);
    options['attributes'] = attributes;
  }
  return options;
}
