import { toJson } from './json';

/**
 * A list page as a core answers the gateway's fan-out when the call asks for it (`lines` in the
 * hop body): one line with every item's `uuid` and `modified_at`, then each item's JSON on a
 * line of its own. The gateway filters, merges and writes the items of several clusters from
 * this without parsing and re-writing every item. JSON text never holds a raw line feed.
 */
export const ITEM_LINES_TYPE = 'application/x-svc-item-lines';

/** One item of such a page: what a federated list filters and sorts by, and its JSON text. */
export interface ItemLine {
  uuid: string | null;
  modifiedAt: string | null;
  json: string;
}

const stringOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Each item with what a federated list filters and sorts by, and its JSON text. */
export function itemLinesOf(items: readonly unknown[]): ItemLine[] {
  return items.map((i) => {
    const o = (typeof i === 'object' && i !== null ? i : {}) as Record<string, unknown>;
    return {
      uuid: stringOrNull(o['uuid']),
      modifiedAt: stringOrNull(o['modified_at']),
      json: toJson(i),
    };
  });
}

export function toItemLines(items: readonly unknown[]): string {
  const lines = itemLinesOf(items);
  const keys = lines.map((l) => [l.uuid, l.modifiedAt]);
  return [JSON.stringify(keys), ...lines.map((l) => l.json)].join('\n');
}

/** The items of a page written by toItemLines; throws on anything else. */
export function fromItemLines(text: string): ItemLine[] {
  const lines = text.split('\n');
  const keys = JSON.parse(lines[0] ?? '') as unknown;
  if (!Array.isArray(keys) || keys.length !== lines.length - 1) {
    throw new Error('not an item-lines page');
  }
  return keys.map((k: unknown, n) => {
    const [uuid, modifiedAt] = Array.isArray(k) ? (k as unknown[]) : [];
    return { uuid: stringOrNull(uuid), modifiedAt: stringOrNull(modifiedAt), json: lines[n + 1]! };
  });
}
