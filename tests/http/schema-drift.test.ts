import { isStored, RESOURCES, type AttrType } from '@svc/contract';
import { createClusterDatabase } from '../harness/database-target';
import { readPrismaModels } from '../harness/prisma-schema';
import { openDatabase, migrate, type Db } from '@svc/core';

interface Column {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  datetime_precision: number | null;
  collation_name: string | null;
}

const PRISMA_TO_PG: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Boolean: 'boolean',
  DateTime: 'timestamp with time zone',
  Json: 'jsonb',
};

const CONTRACT_TO_PG: Record<AttrType, string> = {
  string: 'text',
  text: 'text',
  integer: 'bigint',
  float: 'double precision',
  boolean: 'boolean',
  datetime: 'timestamp with time zone',
  hash: 'jsonb',
  array: 'jsonb',
};

let db: Db;
let drop: () => Promise<void>;
let columns: Column[];
let indexes: { tablename: string; indexname: string; indexdef: string }[];

beforeAll(async () => {
  const target = await createClusterDatabase();
  drop = target.drop;
  ({ db } = await openDatabase(target.url));
  await migrate(db);
  columns = (
    await db.query<Column>({
      text: `SELECT table_name, column_name, data_type, is_nullable, datetime_precision, collation_name
             FROM information_schema.columns c
             WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
               AND EXISTS (SELECT 1 FROM information_schema.tables t WHERE t.table_schema = 'public'
                           AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE')`,
      values: [],
    })
  ).rows;
  indexes = (
    await db.query<(typeof indexes)[number]>({
      text: `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`,
      values: [],
    })
  ).rows;
}, 60_000);

afterAll(async () => {
  await db?.close();
  await drop?.();
});

const columnsOf = (table: string) => columns.filter((c) => c.table_name === table);

describe('schema.prisma and the SQL migrations', () => {
  const models = readPrismaModels();

  it('model the same tables', () => {
    const tables = [...new Set(columns.map((c) => c.table_name))].sort();
    expect(models.map((m) => m.table).sort()).toEqual(tables);
  });

  it.each(models.map((m) => [m.table, m] as const))(
    'agree on the columns of %s',
    (table, model) => {
      const actual = columnsOf(table).map((c) => ({
        name: c.column_name,
        type: c.data_type,
        nullable: c.is_nullable === 'YES',
        precision: c.data_type.startsWith('timestamp') ? c.datetime_precision : null,
      }));
      const declared = model.fields.map((f) => ({
        name: f.name,
        type: f.nativeType === 'SmallInt' ? 'smallint' : PRISMA_TO_PG[f.type],
        nullable: f.optional,
        precision:
          f.type === 'DateTime' ? Number(/\((\d+)\)/.exec(f.nativeType ?? '')?.[1] ?? 3) : null,
      }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(declared.sort(byName)).toEqual(actual.sort(byName));
    },
  );

  it('declare only indexes that exist, on the same columns', () => {
    for (const model of models) {
      for (const index of model.indexes) {
        const found = indexes.find((i) => i.indexname === index.name);
        expect([index.name, found?.tablename]).toEqual([index.name, model.table]);
        const cols = /\((.*)\)/
          .exec(found!.indexdef)![1]!
          .split(',')
          .map((c) => c.trim().split(' ')[0]);
        expect([index.name, cols]).toEqual([index.name, index.columns]);
        expect([index.name, found!.indexdef.includes('UNIQUE')]).toEqual([
          index.name,
          index.unique,
        ]);
      }
    }
  });

  it('give every text column the binary collation', () => {
    const wrong = columns.filter((c) => c.data_type === 'text' && c.collation_name !== 'C');
    expect(wrong.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([]);
  });
});

describe('the contract and the database', () => {
  it.each(RESOURCES.map((r) => [r.type, r] as const))(
    'store every stored attribute of %s',
    (table, r) => {
      const stored = Object.entries(r.attributes).filter(([, a]) => isStored(a));
      const actual = new Map(columnsOf(table).map((c) => [c.column_name, c]));
      for (const [name, a] of stored) {
        const col = actual.get(name);
        expect([name, col?.data_type]).toEqual([name, CONTRACT_TO_PG[a.type]]);
      }
    },
  );
});
