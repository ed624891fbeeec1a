import { attributeOf, FILTER_OPERATORS, type ResourceSpec } from '@svc/contract';
import { usageError } from './exit-codes';

const WORD_OPS = ['not in', 'ilike', 'like', 'in', 'is_a', 'exists', 'contains'];
const SYMBOL_OPS = ['<=', '>=', '!=', '<>', '=', '<', '>'];
const SIMPLE = new RegExp(
  `^\\s*([^\\s=<>!]+)\\s*(${SYMBOL_OPS.join('|')})\\s*(.*)$|^\\s*(\\S+)\\s+(${WORD_OPS.map((op) => op.replace(' ', '\\s+')).join('|')})\\s+(.*)$`,
  'is',
);
const HELP = `expected '<attribute> <operator> <value>' (operators: ${FILTER_OPERATORS.join(', ')}), a JSON condition or list, or '(a > b)'`;

/** A value as written: JSON where it parses (numbers, true, null, "text", [..]), else text. */
function valueOf(text: string, op: string): unknown {
  const t = text.trim();
  let value: unknown = t;
  try {
    value = JSON.parse(t);
  } catch {
    // plain text
  }
  if ((op === 'in' || op === 'not in') && !Array.isArray(value)) {
    return t === '' ? [] : t.split(',').map((s) => s.trim());
  }
  return value;
}

/** Can the resource filter on this attribute (lists-and-filters.md §10, §11)? */
function knownAttribute(r: ResourceSpec, attr: string): boolean {
  if (attr === 'any') return true;
  const dot = attr.indexOf('.');
  const name = dot < 0 ? attr : attr.slice(0, dot);
  if (dot >= 0 && name === 'container' && r.type === 'container_requests') return true;
  const spec = attributeOf(r, name);
  return spec !== undefined && !spec.secret && (dot < 0 || spec.type === 'hash');
}

function fromJson(text: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw usageError(`bad filter '${text}': not valid JSON`);
  }
  if (!Array.isArray(value)) throw usageError(`bad filter '${text}': ${HELP}`);
  const single =
    value.length === 3 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'string' &&
    (FILTER_OPERATORS as readonly string[]).includes(value[1].toLowerCase());
  return single ? [value] : value;
}

/**
 * One --filter: `name like %x%`, `replication_desired >= 2`, `state in Committed,Final`,
 * `properties.lab = east`, a JSON condition or list of conditions, or an expression `(a > b)`.
 */
export function parseFilter(text: string, r: ResourceSpec): unknown[] {
  const t = text.trim();
  if (t.startsWith('[')) return fromJson(t);
  if (t.startsWith('(')) return [t];
  const m = SIMPLE.exec(t);
  if (!m) throw usageError(`bad filter '${text}': ${HELP}`);
  const attr = (m[1] ?? m[4])!;
  const op = (m[2] ?? m[5])!.toLowerCase().replace(/\s+/, ' ');
  if (!knownAttribute(r, attr)) {
    throw usageError(`bad filter '${text}': ${r.type} have no attribute '${attr}'`);
  }
  return [[attr, op, valueOf((m[3] ?? m[6])!, op)]];
}
