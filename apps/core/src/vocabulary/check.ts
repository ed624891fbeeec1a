import { isReservedKey } from './reserved';
import type { Tag, Vocabulary } from './vocabulary';

const q = (s: string): string => JSON.stringify(s);

/** `number`, `boolean`, `null`, `object` or `array`: a value's JSON type. */
const jsonType = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

/** The tag id whose label this key is (compared without case), if any. */
function tagOfLabel(v: Vocabulary, key: string): string | undefined {
  const wanted = key.toLowerCase();
  return Object.entries(v.tags).find(([, tag]) =>
    (tag.labels ?? []).some((l) => l.label.toLowerCase() === wanted),
  )?.[0];
}

/** The value id a string names by another case or by a label, if any. */
function valueAlias(tag: Tag, s: string): string | undefined {
  const wanted = s.toLowerCase();
  return Object.entries(tag.values ?? {}).find(
    ([id, value]) =>
      id.toLowerCase() === wanted ||
      (value.labels ?? []).some((l) => l.label.toLowerCase() === wanted),
  )?.[0];
}

function stringProblem(key: string, tag: Tag, s: string): string | null {
  if (tag.values && Object.hasOwn(tag.values, s)) return null;
  const alias = valueAlias(tag, s);
  if (alias !== undefined)
    return `tag value ${q(s)} for key ${q(key)} is an alias, must be provided as ${q(alias)}`;
  return tag.strict ? `tag value ${q(s)} is not valid for key ${q(key)}` : null;
}

function keyProblem(v: Vocabulary, key: string, value: unknown): string | null {
  if (isReservedKey(key)) return null;
  const tag = Object.hasOwn(v.tags, key) ? v.tags[key] : undefined;
  if (!tag) {
    const id = tagOfLabel(v, key);
    if (id !== undefined) return `tag key ${q(key)} is an alias, must be provided as ${q(id)}`;
    return v.strictTags ? `tag key ${q(key)} is not defined in the vocabulary` : null;
  }
  if (typeof value === 'string') return stringProblem(key, tag, value);
  if (!Array.isArray(value)) {
    return `value type for tag key ${q(key)} was ${jsonType(value)}, but expected a string or list of strings`;
  }
  for (const element of value) {
    if (typeof element !== 'string')
      return `value list element type for tag key ${q(key)} was ${jsonType(element)}, but expected a string`;
    const problem = stringProblem(key, tag, element);
    if (problem) return problem;
  }
  return null;
}

/**
 * The first problem of a `properties` value under the vocabulary, keys taken in ascending
 * code-point order so the answer is always the same; null when it is accepted.
 */
export function propertiesProblem(
  v: Vocabulary,
  properties: Record<string, unknown>,
): string | null {
  const keys = Object.keys(properties).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const problem = keyProblem(v, key, properties[key]);
    if (problem) return problem;
  }
  return null;
}
