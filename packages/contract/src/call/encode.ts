import type { Endpoint } from '../endpoints';

/** An API call as an HTTP request, in the form every client of the contract may send. */
export interface EncodedCall {
  method: string;
  /** From `/svc/v1/`, with the `{uuid}` segment filled in and the query string appended. */
  path: string;
  /** A JSON object body (POST and PUT), or undefined. */
  json?: Record<string, unknown>;
}

const queryValue = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The inverse of `parseRequest` + `typedOptions`: the operation's method and path, path
 * parameters in the path, a create's or update's attributes wrapped in the singular, other
 * options in the query (GET, DELETE) or the JSON body (POST, PUT).
 */
export function encodeCall(
  endpoint: Endpoint,
  options: Readonly<Record<string, unknown>>,
): EncodedCall {
  let path = `/svc/v1/${endpoint.path}`;
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const spec = endpoint.params[name];
    if (spec?.location === 'path')
      path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else if (name !== 'attributes') rest[name] = value;
  }
  const attributes = options['attributes'];
  if (endpoint.httpMethod === 'GET' || endpoint.httpMethod === 'DELETE') {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(rest)) search.set(name, queryValue(value));
    const text = search.toString();
    return { method: endpoint.httpMethod, path: text ? `${path}?${text}` : path };
  }
  const json: Record<string, unknown> = { ...rest };
  if (endpoint.attributesOf)
    json[endpoint.wrapper ?? endpoint.attributesOf.singular] = attributes ?? {};
  return { method: endpoint.httpMethod, path, json };
}
