import { UnprocessableError } from '@svc/errors';
import { isSelectable, msg, type ResourceSpec } from '@svc/contract';

/** `select`: absent means the default selection; every name must be a public attribute. */
export function parseSelect(
  r: ResourceSpec,
  value: readonly unknown[] | undefined,
): string[] | null {
  if (value === undefined) return null;
  if (value.length === 0) throw new UnprocessableError(msg.emptySelect());
  const names: string[] = [];
  for (const item of value) {
    const name = typeof item === 'string' ? item : JSON.stringify(item);
    if (typeof item !== 'string' || !isSelectable(r, item)) {
      throw new UnprocessableError(msg.invalidSelectAttribute(name));
    }
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
