import { evaluate, parse, type ValueNode } from '@humanwhocodes/momoa';
import { isReservedKey } from './reserved';
import type { Label, Tag, TagValue, Vocabulary } from './vocabulary';
import { EMPTY_VOCABULARY } from './vocabulary';

/** A vocabulary file's first problem, as `/_health/vocabulary` and start-up report it. */
export class VocabularyError extends Error {}

const fail = (message: string): never => {
  throw new VocabularyError(message);
};
const q = (s: string): string => JSON.stringify(s);
const formatError = (why: string) =>
  fail(`JSON data provided doesn't match Vocabulary format: ${why}`);

/** No object repeats a key, at any depth (JSON.parse would silently keep the last). */
function checkDuplicateKeys(node: ValueNode, path: string[]): void {
  if (node.type === 'Array') {
    node.elements.forEach((e, i) => checkDuplicateKeys(e.value, [...path, String(i)]));
    return;
  }
  if (node.type !== 'Object') return;
  const seen = new Set<string>();
  for (const member of node.members) {
    const key = member.name.type === 'String' ? member.name.value : member.name.name;
    if (seen.has(key)) fail(`duplicate JSON key ${q([...path, key].join('.'))}`);
    seen.add(key);
    checkDuplicateKeys(member.value, [...path, key]);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function labelsOf(v: unknown, where: string): Label[] | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) return formatError(`${where}.labels is not an array`);
  return v.map((l, i) => {
    if (!isObject(l) || typeof l['label'] !== 'string')
      return formatError(`${where}.labels[${i}] is not {"label": <string>}`);
    return { label: l['label'] };
  });
}

function valuesOf(v: unknown, where: string): Record<string, TagValue> | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) return formatError(`${where}.values is not an object`);
  const out: Record<string, TagValue> = {};
  for (const [id, value] of Object.entries(v)) {
    if (!isObject(value)) return formatError(`${where}.values.${id} is not an object`);
    out[id] = { labels: labelsOf(value['labels'], `${where}.values.${id}`) };
  }
  return out;
}

/** The file's shape: `strict_tags` and/or `tags`, each tag with labels and values. */
function shapeOf(data: unknown): Vocabulary {
  if (!isObject(data)) return formatError('not a JSON object');
  for (const key of Object.keys(data)) {
    if (key !== 'strict_tags' && key !== 'tags') formatError(`unknown key ${q(key)}`);
  }
  const strict = data['strict_tags'] ?? false;
  if (typeof strict !== 'boolean') return formatError('strict_tags is not a boolean');
  const rawTags = data['tags'] ?? {};
  if (!isObject(rawTags)) return formatError('tags is not an object');
  const tags: Record<string, Tag> = {};
  for (const [id, t] of Object.entries(rawTags)) {
    if (!isObject(t)) return formatError(`tags.${id} is not an object`);
    const tagStrict = t['strict'] ?? false;
    if (typeof tagStrict !== 'boolean') return formatError(`tags.${id}.strict is not a boolean`);
    tags[id] = {
      strict: tagStrict,
      labels: labelsOf(t['labels'], `tags.${id}`),
      values: valuesOf(t['values'], `tags.${id}`),
    };
  }
  return { strictTags: strict, tags };
}

/** Value ids distinct without case, and no label naming two values. */
function checkValues(id: string, tag: Tag): void {
  const owners = new Map<string, string>();
  for (const [value, { labels }] of Object.entries(tag.values ?? {})) {
    const key = value.toLowerCase();
    if (owners.has(key)) fail(`duplicate tag value ${q(value)} for tag ${q(id)}`);
    owners.set(key, value);
    for (const { label } of labels ?? []) {
      const seenOn = owners.get(label.toLowerCase());
      if (seenOn !== undefined && seenOn !== value) {
        fail(
          `tag value label ${q(label)} for pair (${q(id)}:${q(value)}) already seen on value ${q(seenOn)}`,
        );
      }
      owners.set(label.toLowerCase(), value);
    }
  }
}

/** The rules of a valid vocabulary beyond its shape, in the file's order. */
function checkRules(v: Vocabulary): void {
  if (v.strictTags && Object.keys(v.tags).length === 0)
    fail('vocabulary is strict but no tags are defined');
  const seen = new Set<string>();
  for (const [id, tag] of Object.entries(v.tags)) {
    if (isReservedKey(id)) fail(`tag key ${q(id)} is reserved`);
    if (seen.has(id.toLowerCase())) fail(`duplicate tag key ${q(id)}`);
    seen.add(id.toLowerCase());
    for (const { label } of tag.labels ?? []) {
      // A tag may be labelled with its own id ("Priority": {"labels": [{"label": "Priority"}]}).
      if (label.toLowerCase() === id.toLowerCase()) continue;
      if (seen.has(label.toLowerCase()))
        fail(`tag label ${q(label)} for key ${q(id)} already seen as a tag key or label`);
      seen.add(label.toLowerCase());
    }
    if (tag.strict && Object.keys(tag.values ?? {}).length === 0)
      fail(`tag key ${q(id)} is configured as strict but doesn't provide values`);
    checkValues(id, tag);
  }
}

/** A vocabulary file's text, checked; throws VocabularyError with the first problem. */
export function parseVocabulary(text: string): Vocabulary {
  if (text.trim() === '') return EMPTY_VOCABULARY;
  let doc;
  try {
    doc = parse(text);
  } catch (err) {
    return fail(`invalid JSON format: ${(err as Error).message}`);
  }
  checkDuplicateKeys(doc.body, []);
  const vocabulary = shapeOf(evaluate(doc.body));
  checkRules(vocabulary);
  return vocabulary;
}
