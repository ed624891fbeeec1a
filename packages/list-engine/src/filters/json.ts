/** Small helpers over the JSON values a filter is made of. */
import { fail, fmsg, toJson } from './messages';

export type JsonType = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';

/** The `<json type>` of §15. */
export function jsonType(x: unknown): JsonType {
  if (x === null || x === undefined) return 'null';
  if (Array.isArray(x)) return 'array';
  const t = typeof x;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

/** A value as messages quote it: strings verbatim, numbers as JS writes them (1e400 is Infinity), the rest as JSON. */
export const show = (x: unknown): string =>
  typeof x === 'string' || typeof x === 'number' ? String(x) : toJson(x);

export const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === 'object' && !Array.isArray(x);

/** JSON nesting deeper than this is refused rather than risk PostgreSQL's stack limit. */
export const MAX_DEPTH = 64;

/** Why PostgreSQL could not hold this string, or null when it can. */
function stringProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'strings must not contain NUL characters';
  // A lone surrogate has no UTF-8 form: jsonb rejects its \u escape outright.
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)) {
    return 'strings must not contain unpaired surrogates';
  }
  return null;
}

function valueProblem(x: unknown, depth: number): string | null {
  if (typeof x === 'string') return stringProblem(x);
  // JSON.parse gives Infinity for 1e400, and JSON.stringify would silently write it as null.
  if (typeof x === 'number') return Number.isFinite(x) ? null : 'numbers must be finite';
  if (x === null || typeof x !== 'object') return null;
  if (depth >= MAX_DEPTH) return `values must not nest deeper than ${MAX_DEPTH} levels`;
  const parts = Array.isArray(x) ? x : [...Object.keys(x), ...Object.values(x)];
  for (const part of parts) {
    const problem = valueProblem(part, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** Refuses operands that would reach PostgreSQL as values it rejects (a 500 otherwise). */
export function assertStorable(op: string, operand: unknown): void {
  const problem = valueProblem(operand, 0);
  if (problem) fail(fmsg.unstorableOperand(op, problem));
}

/** True when the string has no NUL and no lone surrogate (used for keys and attribute names). */
export const isStorableString = (s: string): boolean => stringProblem(s) === null;
