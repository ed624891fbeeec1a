import { isOrderable, isSelectable, msg } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { DEFAULT_ORDER, parseOrderEntry, type OrderKey } from '@svc/list-engine';
import type { ResourceRules } from '../resources/common/rules';
import { CONTENT_TYPES } from './types';

/** `<type>.<rest>` with a contents type as qualifier, or null. */
function qualified(name: string): { type: string; rest: string } | null {
  const dot = name.indexOf('.');
  if (dot < 0) return null;
  return { type: name.slice(0, dot), rest: name.slice(dot + 1) };
}

/**
 * Each type's total order (groups.md §3 step 6): `<type>.<attr>` entries for that type, others
 * for every type that has the attribute (and at least one must), then `modified_at desc,
 * uuid asc`; nothing after the first uuid key.
 */
export function orderByType(
  all: readonly ResourceRules[],
  entries: readonly unknown[] | undefined,
): Map<ResourceRules, OrderKey[]> {
  const keys = new Map<ResourceRules, OrderKey[]>(all.map((r) => [r, []]));
  for (const entry of entries ?? []) {
    const text = typeof entry === 'string' ? entry.trim() : '';
    const first = text.split(/\s+/)[0] ?? '';
    const q = qualified(first);
    if (q) {
      const rules = CONTENT_TYPES.has(q.type) && all.find((r) => r.resource.type === q.type);
      if (!rules) throw new UnprocessableError(msg.invalidOrderAttribute(String(entry)));
      if (!isOrderable(rules.resource, q.rest))
        throw new UnprocessableError(msg.invalidOrderAttribute(String(entry)));
      keys.get(rules)!.push(parseOrderEntry(rules.resource, text.slice(q.type.length + 1)));
      continue;
    }
    const having = all.filter((r) => typeof entry === 'string' && isOrderable(r.resource, first));
    if (having.length === 0) throw new UnprocessableError(msg.invalidOrderAttribute(String(entry)));
    for (const rules of having) keys.get(rules)!.push(parseOrderEntry(rules.resource, text));
  }
  return new Map([...keys].map(([rules, k]) => [rules, totalOrder(k)]));
}

function totalOrder(requested: readonly OrderKey[]): OrderKey[] {
  const out: OrderKey[] = [];
  for (const key of [...requested, ...DEFAULT_ORDER]) {
    if (out.some((k) => k.attribute === key.attribute)) continue;
    out.push(key);
    if (key.attribute === 'uuid') break;
  }
  return out;
}

/** Never rendered by contents, even when selected (groups.md §3 step 8). */
const NEVER_IN_CONTENTS = new Set(['manifest_text', 'unsigned_manifest_text']);

/**
 * Each type's selection (step 8): `<type>.<attr>` for one type, other names for every type
 * that has them (and at least one remaining type must). A type that has none renders `kind`.
 */
export function selectByType(
  all: readonly ResourceRules[],
  select: readonly unknown[] | undefined,
): Map<ResourceRules, string[] | null> {
  if (select === undefined) return new Map(all.map((r) => [r, null]));
  if (select.length === 0) throw new UnprocessableError(msg.emptySelect());
  const names = new Map<ResourceRules, string[]>(all.map((r) => [r, ['kind']]));
  const add = (rules: ResourceRules, name: string) => {
    const list = names.get(rules)!;
    if (!list.includes(name) && !NEVER_IN_CONTENTS.has(name)) list.push(name);
  };
  for (const item of select) {
    const name = typeof item === 'string' ? item : JSON.stringify(item);
    const q = typeof item === 'string' ? qualified(item) : null;
    if (q && CONTENT_TYPES.has(q.type)) {
      const rules = all.find((r) => r.resource.type === q.type);
      if (rules) {
        if (!isSelectable(rules.resource, q.rest))
          throw new UnprocessableError(msg.invalidSelectAttribute(name));
        add(rules, q.rest);
      }
      continue;
    }
    const having = all.filter((r) => typeof item === 'string' && isSelectable(r.resource, item));
    if (having.length === 0) throw new UnprocessableError(msg.invalidSelectAttribute(name));
    for (const rules of having) add(rules, name);
  }
  return names;
}
