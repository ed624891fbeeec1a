import { links, users } from '@svc/contract';
import { compileList } from './compile';
import { parseListParams } from './parse-list';
import { sql } from './sql';

const limits = { maxItemsPerResponse: 1000, maxFilterConditions: 1000 };

describe('compileList', () => {
  it('reads the default columns, orders totally and pages with parameters', () => {
    const { items, count } = compileList(parseListParams(links, { limit: 5, offset: 10 }, limits));
    expect(items.text).toBe(
      'SELECT "uuid", "owner_uuid", "created_at", "modified_at", "modified_by_user_uuid", "link_class", "name", "tail_uuid", "head_uuid", "properties" FROM "links" ORDER BY "modified_at" DESC, "uuid" ASC LIMIT $1 OFFSET $2',
    );
    expect(items.values).toEqual([5, 10]);
    expect(count?.text).toBe('SELECT count(*) AS n FROM "links"');
  });

  it('skips counting with count=none', () => {
    expect(compileList(parseListParams(links, { count: 'none' }, limits)).count).toBeNull();
  });

  it('adds scope conditions as parameters', () => {
    const { items } = compileList(parseListParams(links, {}, limits), [sql`"owner_uuid" = ${'x'}`]);
    expect(items.text).toContain('WHERE ("owner_uuid" = $1)');
    expect(items.values[0]).toBe('x');
  });

  it('computes computed attributes and collates them', () => {
    const { items } = compileList(parseListParams(users, { order: ['full_name'] }, limits));
    expect(items.text).toContain(`AS "full_name"`);
    expect(items.text).toContain(`ORDER BY (btrim(`);
    expect(items.text).toContain(`) COLLATE "C" ASC, "uuid" ASC`);
  });

  it('compiles distinct selections', () => {
    const { items, count } = compileList(
      parseListParams(links, { select: ['link_class'], distinct: true }, limits),
    );
    expect(items.text).toBe(
      'SELECT DISTINCT "link_class" FROM "links" ORDER BY "link_class" ASC LIMIT $1 OFFSET $2',
    );
    expect(count?.text).toBe(
      'SELECT count(*) AS n FROM (SELECT DISTINCT "link_class" FROM "links") AS d',
    );
  });
});
