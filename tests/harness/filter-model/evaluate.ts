/**
 * A small in-memory evaluator of lists-and-filters.md §7–§13 on collection rows, written from
 * the contract: which rows a filter selects, with PostgreSQL's text order (code points), LIKE
 * escapes, jsonb text output and NULL semantics.
 */
import { parseTimestampInput } from '@svc/contract';
import type { Json, Row } from './row';

const cmpText = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b)); // code points
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
function like(value: string, p: string, fold: boolean): boolean {
  const chars = Array.from(fold ? asciiLower(p) : p);
  let re = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const literal = c === '\\' ? (chars[++i] ?? '\\') : null;
    if (literal !== null) re += literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    else re += c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'su').test(fold ? asciiLower(value) : value);
}
function cmp(o: string, d: number): boolean {
  return o === '<'
    ? d < 0
    : o === '<='
      ? d <= 0
      : o === '>'
        ? d > 0
        : o === '>='
          ? d >= 0
          : d === 0;
}
/** jsonb's text output: keys by length then bytes, ", " and ": " separators. */
function jsonbText(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort(
      (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || cmpText(a, b),
    );
    return `{${keys.map((k) => `${jsonbText(k)}: ${jsonbText(v[k]!)}`).join(', ')}}`;
  }
  if (typeof v === 'string') {
    const esc: Record<string, string> = {
      '"': '\\"',
      '\\': '\\\\',
      '\b': '\\b',
      '\f': '\\f',
      '\n': '\\n',
      '\r': '\\r',
      '\t': '\\t',
    };
    // eslint-disable-next-line no-control-regex -- jsonb escapes exactly these control characters
    return `"${v.replace(/["\\\u0000-\u001f]/g, (c) => esc[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
  }
  return JSON.stringify(v);
}
function jsonEqual(a: Json, b: Json): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => jsonEqual(x, b[i]!))
    );
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k]!, b[k]!))
    );
  }
  return a === b;
}
const fromJsonText = (x: unknown): Json => (typeof x === 'string' ? JSON.parse(x) : x) as Json;

type Value = string | bigint | boolean | null;
function attr(r: Row, name: string): Value {
  if (name === 'current_version_uuid') return r.uuid;
  if (name === 'unsigned_manifest_text') return r.manifest_text;
  if (name === 'is_trashed') return r.trash_at !== null && r.trash_at <= new Date().toISOString();
  return (r as unknown as Record<string, Value>)[name] ?? null;
}
function operandValue(name: string, x: unknown): Value {
  if (x === null) return null;
  if (INT_NAMES.has(name)) return BigInt(x as string | number);
  if (name === 'modified_at' || name === 'trash_at') return parseTimestampInput(x as string);
  if (name === 'preserve_version' || name === 'is_trashed')
    return /^(true|t|1|yes|y)$/i.test(String(x));
  return String(x);
}
const INT_NAMES = new Set(['replication_desired', 'replication_confirmed', 'version']);
const compare = (a: Value, b: Value): number =>
  typeof a === 'bigint'
    ? a < (b as bigint)
      ? -1
      : a > (b as bigint)
        ? 1
        : 0
    : cmpText(String(a), String(b));

function scalarMatch(v: Value, o: string, name: string, x: unknown): boolean {
  if (o === 'in' || o === 'not in') {
    const list = x as unknown[];
    const hit = list.some((e) =>
      e === null ? v === null : v !== null && compare(v, operandValue(name, e)) === 0,
    );
    return o === 'in' ? hit : !hit;
  }
  if (o === 'like' || o === 'ilike')
    return v !== null && like(String(v), x as string, o === 'ilike');
  const w = operandValue(name, x);
  if (o === '=') return w === null ? v === null : v !== null && compare(v, w) === 0;
  if (o === '!=' || o === '<>') return w === null ? v !== null : v === null || compare(v, w) !== 0;
  return v !== null && cmp(o, compare(v, w));
}
const sameScalar = (v: Json | undefined, x: unknown) =>
  v !== undefined && typeof v === typeof x && v === x;
function subMatch(p: Record<string, Json>, key: string, o: string, x: unknown): boolean {
  const v = Object.hasOwn(p, key) ? p[key] : undefined;
  switch (o) {
    case '=':
      return sameScalar(v, x);
    case '!=':
    case '<>':
      return !sameScalar(v, x);
    case 'in':
      return (x as unknown[]).some((e) => sameScalar(v, e));
    case 'not in':
      return !(x as unknown[]).some((e) => sameScalar(v, e));
    case 'exists':
      return (v !== undefined) === x;
    case 'contains':
      return sameScalar(v, x) || (Array.isArray(v) && v.some((e) => sameScalar(e, x)));
    case 'like':
    case 'ilike':
      return (
        (typeof v === 'string' || typeof v === 'number') &&
        like(String(v), x as string, o === 'ilike')
      );
    default:
      return (
        typeof v === typeof x &&
        (typeof v === 'string'
          ? cmp(o, cmpText(v, x as string))
          : cmp(o, (v as number) - (x as number)))
      );
  }
}
const KINDS: Record<string, string> = {
  'svc#group': 'j7d0g',
  'svc#user': 'tpzed',
  'svc#container_request': 'xvhdp',
  'svc#collection': '4zz18',
};
const STRING_COLUMNS = [
  'uuid',
  'owner_uuid',
  'modified_by_user_uuid',
  'name',
  'description',
  'manifest_text',
  'unsigned_manifest_text',
  'portable_data_hash',
  'current_version_uuid',
];

export function matches(r: Row, f: unknown): boolean {
  if (typeof f === 'string') {
    const [, a, o, b] = /^\((\w+) (\S+) (\w+)\)$/.exec(f)!;
    const [va, vb] = [attr(r, a!), attr(r, b!)];
    return va !== null && vb !== null && cmp(o!, compare(va, vb));
  }
  const [name, rawOp, x] = f as [string, string, unknown];
  const o = rawOp.toLowerCase();
  if (name.startsWith('properties.')) {
    const rest = name.slice('properties.'.length);
    return subMatch(r.properties, rest.startsWith('<') ? rest.slice(1, -1) : rest, o, x);
  }
  if (name === 'any' && (o === 'like' || o === 'ilike')) {
    const texts = [
      r.name,
      r.description,
      jsonbText(r.properties),
      jsonbText(r.storage_classes_desired),
      jsonbText([]),
    ];
    return texts.some((t) => t !== null && like(t, x as string, o === 'ilike'));
  }
  if (name === 'any') return STRING_COLUMNS.some((c) => scalarMatch(attr(r, c), o, c, x));
  if (o === 'is_a') {
    const kinds = (Array.isArray(x) ? x : [x]) as string[];
    if (name === 'uuid') return kinds.includes('svc#collection');
    const v = attr(r, name) as string | null;
    return (
      v !== null &&
      kinds.some((k) => KINDS[k] && new RegExp(`^[0-9a-z]{5}-${KINDS[k]}-[0-9a-z]{15}$`).test(v))
    );
  }
  if (name === 'properties' || name === 'storage_classes_desired') {
    const v = (name === 'properties' ? r.properties : r.storage_classes_desired) as Json;
    const has = (s: string) => (Array.isArray(v) ? v.includes(s) : Object.hasOwn(v as object, s));
    if (o === 'exists') return has(x as string);
    if (o === 'contains') return (Array.isArray(x) ? (x as string[]) : [x as string]).some(has);
    return (o === '=') === jsonEqual(v, fromJsonText(x));
  }
  return scalarMatch(attr(r, name), o, name, x);
}
