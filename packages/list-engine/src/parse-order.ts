import { UnprocessableError } from '@svc/errors';
import { isOrderable, msg, type ResourceSpec } from '@svc/contract';
import type { Direction, OrderKey } from './plan';

export const DEFAULT_ORDER: readonly OrderKey[] = [
  { attribute: 'modified_at', direction: 'desc' },
  { attribute: 'uuid', direction: 'asc' },
];

const entryText = (entry: unknown): string =>
  typeof entry === 'string' ? entry : JSON.stringify(entry);

/** One `order` entry: `<attr>` or `<attr> asc|desc`; own-type qualification allowed. */
export function parseOrderEntry(r: ResourceSpec, entry: unknown): OrderKey {
  if (typeof entry !== 'string')
    throw new UnprocessableError(msg.invalidOrderAttribute(entryText(entry)));
  const words = entry.trim().split(/\s+/);
  let attribute = words[0] ?? '';
  if (attribute.startsWith(`${r.type}.`)) attribute = attribute.slice(r.type.length + 1);
  if (!isOrderable(r, attribute)) throw new UnprocessableError(msg.invalidOrderAttribute(entry));
  if (words.length > 2) throw new UnprocessableError(msg.invalidOrderDirection(entry));
  const dir = (words[1] ?? 'asc').toLowerCase();
  if (dir !== 'asc' && dir !== 'desc')
    throw new UnprocessableError(msg.invalidOrderDirection(entry));
  return { attribute, direction: dir as Direction };
}

/**
 * The total order of a list (lists-and-filters.md §3): the default when absent, `uuid asc`
 * appended when missing, nothing after the first uuid key, repeated attributes keep their first
 * entry.
 */
export function parseOrder(r: ResourceSpec, entries: readonly unknown[] | undefined): OrderKey[] {
  if (!entries || entries.length === 0) return [...DEFAULT_ORDER];
  const keys: OrderKey[] = [];
  for (const entry of entries) {
    const key = parseOrderEntry(r, entry);
    if (keys.some((k) => k.attribute === key.attribute)) continue;
    keys.push(key);
    if (key.attribute === 'uuid') return keys;
  }
  keys.push({ attribute: 'uuid', direction: 'asc' });
  return keys;
}

/**
 * With `distinct=true` (§4): keys on unselected attributes and the appended uuid key are dropped,
 * and the selected attributes, ascending, in select order, become the final keys.
 */
export function distinctOrder(
  requested: readonly OrderKey[],
  explicitUuid: boolean,
  select: readonly string[],
  orderable: (name: string) => boolean,
): OrderKey[] {
  const kept = requested.filter(
    (k) => select.includes(k.attribute) && (k.attribute !== 'uuid' || explicitUuid),
  );
  for (const name of select) {
    if (orderable(name) && !kept.some((k) => k.attribute === name)) {
      kept.push({ attribute: name, direction: 'asc' });
    }
  }
  return kept;
}
