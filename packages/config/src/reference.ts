import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from './schema';

interface Row {
  key: string;
  type: string;
  def: string;
  about: string;
}

const typeOf = (s: TSchema): string =>
  s['anyOf']
    ? (s['anyOf'] as TSchema[]).map((x) => JSON.stringify(x['const'])).join(' or ')
    : String(s['type'] ?? '');

function walk(schema: TSchema, path: string, rows: Row[]): void {
  const props = schema['properties'] as Record<string, TSchema> | undefined;
  if (schema['type'] === 'object' && props) {
    for (const [name, child] of Object.entries(props))
      walk(child, path ? `${path}.${name}` : name, rows);
    return;
  }
  const record = schema['patternProperties'] as Record<string, TSchema> | undefined;
  if (schema['type'] === 'object' && record) {
    const inner = Object.values(record)[0]!;
    const placeholder = path === 'Clusters' ? '<id>' : '<key>';
    if (inner['type'] === 'object' && inner['properties']) {
      walk(inner, `${path}.${placeholder}`, rows);
      return;
    }
  }
  rows.push({
    key: path,
    type: typeOf(schema),
    def: schema['default'] === undefined ? 'required' : `\`${JSON.stringify(schema['default'])}\``,
    about: String(schema['description'] ?? ''),
  });
}

/** Every configuration key with its type, default and meaning, as a Markdown table. */
export function configurationReference(): string {
  const rows: Row[] = [];
  walk(ConfigSchema, '', rows);
  const escape = (t: string) => t.replace(/\|/g, '\\|');
  return [
    '| Key | Type | Default | Meaning |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| \`${r.key}\` | ${escape(r.type)} | ${escape(r.def)} | ${escape(r.about)} |`,
    ),
  ].join('\n');
}
