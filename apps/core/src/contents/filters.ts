import { attributeOf, resourceByKind, type ResourceSpec } from '@svc/contract';
import { ApiError, UnprocessableError } from '@svc/errors';
import { compileFilters, type Sql } from '@svc/list-engine';
import type { ResourceRules } from '../resources/common/rules';
import { CONTENT_TYPES } from './types';

const invalidAttribute = (attr: string) =>
  new UnprocessableError(`Invalid attribute '${attr}' in filter`);

/** One filter element, and which type it is limited to (null: every type). */
interface Placed {
  element: unknown;
  only: string | null;
}

const isCondition = (e: unknown): e is [string, unknown, unknown] =>
  Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && !/^ *\(/.test(e[0]);

const hasHashAttribute = (rules: readonly ResourceRules[], name: string): boolean =>
  rules.some((r) => attributeOf(r.resource, name)?.type === 'hash');

/**
 * Where one element applies (groups.md §3 step 4): `<type>.<attr>` to that type only, with the
 * qualifier removed; `container.<attr>` to container requests, unchanged; `<hash>.<key>` and
 * unqualified attributes to every type. Any other qualifier, or an empty part, is a 422.
 */
function place(element: unknown, all: readonly ResourceRules[]): Placed {
  if (!isCondition(element)) return { element, only: null };
  const [attribute, operator, operand] = element;
  const dot = attribute.indexOf('.');
  if (dot < 0) return { element, only: null };
  const prefix = attribute.slice(0, dot);
  const rest = attribute.slice(dot + 1);
  if (prefix === '' || rest === '') throw invalidAttribute(attribute);
  if (CONTENT_TYPES.has(prefix)) return { element: [rest, operator, operand], only: prefix };
  if (prefix === 'container') return { element, only: 'container_requests' };
  if (hasHashAttribute(all, prefix)) return { element, only: null };
  throw invalidAttribute(attribute);
}

/** `["uuid", "is_a", K]`: the kinds it names (none when K names no resource). */
function isAKinds(element: unknown): ResourceSpec[] | null {
  if (!isCondition(element) || element[0] !== 'uuid' || element[1] !== 'is_a') return null;
  const kinds = Array.isArray(element[2]) ? (element[2] as unknown[]) : [element[2]];
  return kinds
    .map((k) => (typeof k === 'string' ? resourceByKind(k) : undefined))
    .filter((r): r is ResourceSpec => r !== undefined);
}

/** A malformed element is the same error for every type: let the usual parser report it. */
function checkShapes(elements: readonly unknown[], any: ResourceSpec): void {
  for (const e of elements) {
    if (typeof e !== 'string' && (!Array.isArray(e) || e.length !== 3))
      compileFilters(any, [e], undefined);
  }
}

function compileFor(r: ResourceSpec, elements: readonly unknown[]): Sql | null {
  return compileFilters(r, elements, undefined);
}

/** The compiled condition of each type that still contributes; types left out are absent. */
export function filtersByType(
  all: readonly ResourceRules[],
  filters: readonly unknown[],
): Map<ResourceRules, Sql | null> {
  checkShapes(filters, all[0]!.resource);
  let remaining = [...all];
  const placed: Placed[] = [];
  for (const element of filters) {
    const kinds = isAKinds(element);
    if (kinds) {
      compileFor(all[0]!.resource, [element]); // the operand's own checks
      remaining = remaining.filter((r) => kinds.includes(r.resource));
      continue;
    }
    placed.push(place(element, all));
  }
  // Qualified conditions must be valid for their type, whether or not it remains.
  const perType = new Map<ResourceRules, unknown[]>(all.map((r) => [r, []]));
  for (const p of placed.filter((x) => x.only !== null)) {
    const rules = all.find((r) => r.resource.type === p.only)!;
    compileFor(rules.resource, [p.element]);
    perType.get(rules)!.push(p.element);
  }
  for (const p of placed.filter((x) => x.only === null)) {
    const problems: string[] = [];
    const valid = remaining.filter((rules) => {
      try {
        compileFor(rules.resource, [p.element]);
        return true;
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 422) throw err;
        problems.push(...err.messages.map((m) => `${m} on object type ${rules.resource.kind}`));
        return false;
      }
    });
    if (valid.length === 0 && remaining.length > 0) throw new UnprocessableError(problems);
    remaining = valid;
    for (const rules of valid) perType.get(rules)!.push(p.element);
  }
  return new Map(remaining.map((r) => [r, compileFor(r.resource, perType.get(r)!)]));
}
