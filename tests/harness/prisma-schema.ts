import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The part of schema.prisma the drift test compares: models, scalar fields, indexes. */
export interface PrismaField {
  name: string;
  type: string;
  optional: boolean;
  nativeType: string | null;
}

export interface PrismaModel {
  table: string;
  fields: PrismaField[];
  indexes: { name: string; columns: string[]; unique: boolean }[];
}

const FIELD_RE = /^(\w+)\s+(\w+)(\?)?(.*)$/;
const INDEX_RE = /^@@(index|unique)\(\[([^\]]*)\],\s*(?:type:\s*\w+,\s*)?map:\s*"([^"]+)"\)/;

/** Reads the models of prisma/schema.prisma (the subset this project uses). */
export function readPrismaModels(root = join(__dirname, '..', '..')): PrismaModel[] {
  const text = readFileSync(join(root, 'prisma', 'schema.prisma'), 'utf8');
  const models: PrismaModel[] = [];
  for (const block of text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const model: PrismaModel = { table: block[1]!, fields: [], indexes: [] };
    for (const rawLine of block[2]!.split('\n')) {
      const line = rawLine.trim();
      if (line === '' || line.startsWith('//')) continue;
      const map = /^@@map\("([^"]+)"\)/.exec(line);
      if (map) {
        model.table = map[1]!;
        continue;
      }
      if (line.startsWith('@@id(')) continue;
      const index = INDEX_RE.exec(line);
      if (index) {
        const columns = index[2]!.split(',').map((c) => c.trim().replace(/\(.*\)$/, ''));
        model.indexes.push({ name: index[3]!, columns, unique: index[1] === 'unique' });
        continue;
      }
      const field = FIELD_RE.exec(line);
      if (field) {
        const native = /@db\.(\w+(?:\(\d+\))?)/.exec(field[4] ?? '');
        model.fields.push({
          name: field[1]!,
          type: field[2]!,
          optional: field[3] === '?',
          nativeType: native?.[1] ?? null,
        });
      }
    }
    models.push(model);
  }
  return models;
}
