import type { Endpoint } from '../endpoints';
import type { ParamSpec } from '../params';
import { ref } from './schemas';

type Json = Record<string, unknown>;

/** Parameters whose array elements are more than plain strings. */
const ARRAY_ITEMS: Readonly<Record<string, Json>> = { filters: ref('Filters') };

function scalarSchema(spec: ParamSpec): Json {
  const d = spec.default;
  switch (spec.type) {
    case 'integer':
      return { type: 'integer', minimum: 0, ...(d !== undefined ? { default: Number(d) } : {}) };
    case 'boolean':
      return { type: 'boolean', ...(d !== undefined ? { default: d === 'true' } : {}) };
    default:
      return { type: 'string', ...(d !== undefined ? { default: d } : {}) };
  }
}

/**
 * One query or path parameter. Arrays and objects travel JSON-encoded in one query value
 * (`filters=[["name","like","a%"]]`, requests-and-errors.md §3): OpenAPI's `content` form.
 */
function parameterObject(name: string, spec: ParamSpec, inPath: boolean): Json {
  const common = { name, description: spec.description };
  if (inPath) return { ...common, in: 'path', required: true, schema: { type: 'string' } };
  if (spec.type === 'array' || spec.type === 'object') {
    const schema =
      spec.type === 'object'
        ? { type: 'object' }
        : (ARRAY_ITEMS[name] ?? { type: 'array', items: { type: 'string' } });
    return { ...common, in: 'query', required: false, content: { 'application/json': { schema } } };
  }
  return { ...common, in: 'query', required: false, schema: scalarSchema(spec) };
}

/** The parameters of an operation at one of its paths: `{x}` segments in the path, the rest in the query. */
export function parametersAt(e: Endpoint, path: string): Json[] {
  const inPath = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
  const params = Object.entries(e.params)
    .filter(([name, spec]) => inPath.has(name) || spec.location !== 'path')
    .map(([name, spec]) => parameterObject(name, spec, inPath.has(name)));
  for (const name of inPath) {
    if (!(name in e.params))
      params.push(
        parameterObject(name, { type: 'string', location: 'path', description: name }, true),
      );
  }
  return params;
}
