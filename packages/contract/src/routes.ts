import { ENDPOINTS, type Endpoint } from './endpoints';

export const API_PREFIX = '/svc/v1/';

export type RouteMatch =
  | { kind: 'endpoint'; endpoint: Endpoint; path: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'not-found' };

interface CompiledPath {
  endpoint: Endpoint;
  segments: readonly string[];
  /** Literal segments rank before `{uuid}` (named segments are matched first). */
  literals: number;
}

const COMPILED: readonly CompiledPath[] = ENDPOINTS.flatMap((endpoint) =>
  [endpoint.path, ...(endpoint.altPaths ?? [])].map((path) => {
    const segments = path.split('/');
    return { endpoint, segments, literals: segments.filter((s) => !s.startsWith('{')).length };
  }),
).sort((a, b) => b.literals - a.literals);

function matchSegments(pattern: readonly string[], actual: readonly string[]) {
  if (pattern.length !== actual.length) return null;
  const vars: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    const got = actual[i]!;
    if (want.startsWith('{')) {
      if (got === '') return null;
      vars[want.slice(1, -1)] = got;
    } else if (want !== got) {
      return null;
    }
  }
  return vars;
}

/**
 * A path segment as routing sees it. `.` and `..` segments and encoded slashes never name
 * anything: refusing them keeps routing and the scope check (which reads the raw path) in
 * agreement, so a scoped token cannot reach around its scopes.
 */
function decodeSegment(s: string): string | null {
  try {
    const decoded = decodeURIComponent(s);
    if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\'))
      return null;
    return decoded;
  } catch {
    return null;
  }
}

/**
 * Could this segment name an object (a uuid, or a collection's portable data hash)? A path whose
 * `{uuid}` is a plain word (`users/setup`) names no operation at all, so a method it lacks is
 * 404 "API endpoint not found" rather than 405.
 */
const ID_SHAPE = /^(?:[0-9a-z]{5}-[0-9a-z]{5}-[0-9a-z]{15}|[0-9a-f]{32}\+[0-9]+(?:\+\S*)?)$/;
const namesAnObject = (vars: Readonly<Record<string, string>>): boolean =>
  Object.values(vars).every((v) => ID_SHAPE.test(v));

/**
 * Finds the operation for a method and a path under `/svc/v1/` (requests-and-errors.md §2).
 * One trailing `/` is ignored; HEAD is handled as GET.
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  if (!pathname.startsWith(API_PREFIX)) return { kind: 'not-found' };
  let rest = pathname.slice(API_PREFIX.length);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  const segments = rest.split('/').map(decodeSegment);
  if (segments.some((s) => s === null)) return { kind: 'not-found' };
  const wanted = method === 'HEAD' ? 'GET' : method;
  let pathKnown = false;
  let bestLiterals = -1;
  for (const candidate of COMPILED) {
    // Only the most literal matching paths count: `users/current` hides `users/{uuid}`.
    if (bestLiterals >= 0 && candidate.literals < bestLiterals) break;
    const vars = matchSegments(candidate.segments, segments as string[]);
    if (vars === null) continue;
    bestLiterals = candidate.literals;
    if (candidate.endpoint.methods.includes(wanted as never)) {
      return { kind: 'endpoint', endpoint: candidate.endpoint, path: vars };
    }
    if (namesAnObject(vars)) pathKnown = true;
  }
  return pathKnown ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
}
