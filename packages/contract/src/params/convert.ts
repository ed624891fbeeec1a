import { UnprocessableError } from '@svc/errors';
import { msg } from '../messages';
import type { ParamSpecs, ParamType } from './types';

const TRUE_VALUES = new Set<unknown>([true, 'true', 1, '1']);
const FALSE_VALUES = new Set<unknown>([false, 'false', 0, '0', '', null]);

function toInteger(name: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    return Math.min(value, Number.MAX_SAFE_INTEGER);
  }
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) {
    const big = BigInt(value);
    return big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
  }
  throw new UnprocessableError(msg.invalidParamValue(name));
}

function toBoolean(name: string, value: unknown): boolean {
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  throw new UnprocessableError(msg.notABoolean(name));
}

/** `order` and `include` also take comma-separated strings; `include` a bare word. */
const SPLITTABLE = new Set(['order', 'include']);

function toArray(name: string, value: unknown): unknown[] | undefined {
  if (value === null || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // not JSON: maybe a comma-separated list below
      }
    } else if (trimmed === 'null') {
      return undefined;
    }
    if (SPLITTABLE.has(name) && !trimmed.startsWith('[')) {
      return trimmed
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    }
  }
  throw new UnprocessableError(msg.notAnArray(name));
}

/** A JSON object, or a string holding one; undefined when it is neither. */
export function toObject(value: unknown): Record<string, unknown> | undefined {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

function toStringParam(name: string, value: unknown): string | null {
  if (value === null || value === 'null') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UnprocessableError(msg.invalidParamValue(name));
}

/**
 * Converts one parameter by its declared type (requests-and-errors.md §3). `undefined` means
 * absent (the caller applies the default).
 */
export function convertParam(name: string, type: ParamType, value: unknown): unknown {
  if (value === undefined) return undefined;
  switch (type) {
    case 'integer':
      return toInteger(name, value);
    case 'boolean':
      return toBoolean(name, value);
    case 'array':
      return toArray(name, value);
    case 'object': {
      if (value === null || value === '') return undefined;
      const obj = toObject(value);
      if (obj === undefined) throw new UnprocessableError(msg.whereNotObject());
      return obj;
    }
    case 'string':
      return toStringParam(name, value);
  }
}

/**
 * Checks every boolean parameter the operation declares (requests-and-errors.md §3), also those
 * no handler reads (`include_old_versions` has no effect, `bypass_federation` matters only to a
 * federated list): a bad value is a 422 whether or not it changes anything.
 */
export function checkBooleanParams(
  declared: ParamSpecs,
  params: Readonly<Record<string, unknown>>,
): void {
  for (const [name, spec] of Object.entries(declared)) {
    if (spec.type === 'boolean') convertParam(name, 'boolean', params[name]);
  }
}

/** JSON nesting any parameter or attribute value may have (stored values are read back too). */
export const MAX_JSON_DEPTH = 100;

/** How deeply a JSON value nests (a scalar is 0), counted without recursion. */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, here]);
  }
  return deepest;
}

/** 422 for a value nested deeper than MAX_JSON_DEPTH (requests-and-errors.md §7: invalid input). */
export function checkJsonDepth(name: string, value: unknown): void {
  if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new UnprocessableError(msg.nestedTooDeeply(name, MAX_JSON_DEPTH));
  }
}
