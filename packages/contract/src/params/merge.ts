import type { RawParams } from './types';

/** Path variables win over the JSON body, the body over a form, a form over the query string. */
export function mergeParams(raw: RawParams): Record<string, unknown> {
  return { ...raw.query, ...(raw.body ?? {}), ...raw.path };
}

/** Query strings may repeat a name; the last value counts. */
export function lastQueryValues(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) out[k] = Array.isArray(v) ? v[v.length - 1] : v;
  return out;
}
