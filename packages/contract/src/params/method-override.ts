export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

const OVERRIDABLE = new Set(['GET', 'PUT', 'PATCH', 'DELETE']);

function overrideValue(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const upper = value.toUpperCase();
  return OVERRIDABLE.has(upper) ? upper : null;
}

/**
 * The method a request is handled as (requests-and-errors.md §2): a POST with a valid `_method`
 * (query or body) or `X-Http-Method-Override` takes that method; `_method` wins; an override on
 * another method, or an unsupported value, is ignored.
 */
export function effectiveMethod(
  method: string,
  methodParam: unknown,
  overrideHeader: string | undefined,
): string {
  const upper = method.toUpperCase();
  if (upper !== 'POST') return upper;
  return overrideValue(methodParam) ?? overrideValue(overrideHeader) ?? upper;
}

/** `_method` from the body wins over the query string, as any body parameter does. */
export const methodParamOf = (
  query: Record<string, unknown>,
  body: Record<string, unknown> | null,
): unknown => (body && '_method' in body ? body['_method'] : query['_method']);
