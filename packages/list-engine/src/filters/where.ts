/** The legacy `where` object (lists-and-filters.md §14), turned into ordinary conditions. */
import type { ResourceSpec } from '@svc/contract';
import { columnOf } from './columns';
import type { Parsed } from './parse';
import type { Condition } from './types';

const condition = (c: Condition): Parsed => ({ kind: 'condition', condition: c });

/** `{"any": ["contains", "<text>"]}`: the text search `["any", "ilike", "%<text>%"]`. */
function anyCondition(value: unknown): Parsed | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [verb, text] = value as unknown[];
  return verb === 'contains' && typeof text === 'string'
    ? condition({ attribute: 'any', operator: 'ilike', operand: `%${text}%` })
    : null;
}

/** A scalar means `=`, an array `in`, null IS NULL (`=` null). Unknown attributes are ignored. */
export function parseWhere(r: ResourceSpec, where: Record<string, unknown> | undefined): Parsed[] {
  const out: Parsed[] = [];
  for (const [attribute, value] of Object.entries(where ?? {})) {
    if (attribute === 'any') {
      const any = anyCondition(value);
      if (any) out.push(any);
    } else if (columnOf(r, attribute)) {
      out.push(
        condition({ attribute, operator: Array.isArray(value) ? 'in' : '=', operand: value }),
      );
    }
  }
  return out;
}
