import type { SvcClient } from '@svc/client';
import { useDeployment } from '../harness/deployment';
import { makeUser } from '../harness/users';

/** `listAll` walks every page of a list, once per item, also while items are being added. */
const d = useDeployment();

async function projectWith(
  client: SvcClient,
  names: (string | null)[],
  replication: (number | null)[] = [],
) {
  const project = await client.api.groups.create({
    attributes: { name: `paging ${Date.now()} ${Math.random()}`, group_class: 'project' },
  });
  const uuids: string[] = [];
  for (const [i, name] of names.entries()) {
    const c = await client.api.collections.create({
      attributes: { name, owner_uuid: project.uuid, replication_desired: replication[i] ?? null },
    });
    uuids.push(c.uuid);
  }
  return { project: project.uuid, uuids };
}

const counts = (values: string[]) => {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
};

describe('client.api.<type>.listAll', () => {
  it('yields every item once across several pages, in the list order, with progress', async () => {
    const { client } = await makeUser(d.current);
    const { project, uuids } = await projectWith(
      client,
      Array.from({ length: 23 }, (_, i) => `item ${String(i).padStart(2, '0')}`),
    );
    const progress: [number, number | null][] = [];
    const seen: string[] = [];
    for await (const c of client.api.collections.listAll(
      { filters: [['owner_uuid', '=', project]], order: ['name desc'], limit: 5 },
      { onPage: (p) => progress.push([p.fetched, p.total]) },
    )) {
      seen.push(c.name!);
    }
    const names = Array.from({ length: 23 }, (_, i) => `item ${String(i).padStart(2, '0')}`);
    expect(seen).toEqual(names.reverse());
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress.at(-1)).toEqual([23, 23]);
    expect(uuids).toHaveLength(23);
  });

  it('never repeats or skips an item while others are inserted during the walk', async () => {
    const { client } = await makeUser(d.current);
    const { project, uuids } = await projectWith(
      client,
      Array.from({ length: 20 }, (_, i) => `n${String(i).padStart(2, '0')}`),
    );
    const filters = [['owner_uuid', '=', project]] as const;
    const insert = (name: string) =>
      client.api.collections.create({ attributes: { name, owner_uuid: project } });
    // Default order (modified_at desc, uuid asc): each insert lands at the head of the list.
    const seen: string[] = [];
    let i = 0;
    for await (const c of client.api.collections.listAll({ filters: [...filters], limit: 4 })) {
      seen.push(c.uuid);
      if (seen.length % 3 === 0) await insert(`during ${i++}`);
    }
    expect([...counts(seen).values()].every((n) => n === 1)).toBe(true);
    expect(seen.filter((u) => uuids.includes(u)).sort()).toEqual([...uuids].sort());
    // Ordered by name, inserts land before and after the cursor: new ones show up at most once.
    const byName: string[] = [];
    for await (const c of client.api.collections.listAll({
      filters: [...filters],
      order: ['name asc'],
      limit: 4,
    })) {
      byName.push(c.uuid);
      if (byName.length % 4 === 0) {
        await insert(`a-before ${i}`);
        await insert(`z-after ${i++}`);
      }
    }
    expect([...counts(byName).values()].every((n) => n === 1)).toBe(true);
    expect(uuids.every((u) => byName.includes(u))).toBe(true);
    // The same inserts make a plain offset walk of the default order repeat items.
    const byOffset: string[] = [];
    for (let offset = 0; ; offset += 4) {
      const page = await client.api.collections.list({ filters: [...filters], limit: 4, offset });
      byOffset.push(...page.items.map((c) => c.uuid));
      if (page.items.length < 4) break;
      await insert(`offset ${i++}`);
    }
    expect([...counts(byOffset).values()].some((n) => n > 1)).toBe(true);
  });

  it('walks runs of equal sort keys longer than a page, and NULLs, in both directions', async () => {
    const { client } = await makeUser(d.current);
    const replication = [...Array(7).fill(2), null, null, null, 1, 3, 5, 5];
    const names = replication.map((_, i) => `r${i}`);
    const { project, uuids } = await projectWith(client, names, replication);
    for (const dir of ['asc', 'desc'] as const) {
      const values: (number | null)[] = [];
      const ids: string[] = [];
      const order = [`replication_desired ${dir}`] as const;
      for await (const c of client.api.collections.listAll({
        filters: [['owner_uuid', '=', project]],
        order: [...order],
        limit: 3,
      })) {
        values.push(c.replication_desired);
        ids.push(c.uuid);
      }
      const all = await client.api.collections.list({
        filters: [['owner_uuid', '=', project]],
        order: [...order],
        limit: 100,
      });
      expect(ids).toEqual(all.items.map((c) => c.uuid));
      expect([...ids].sort()).toEqual([...uuids].sort());
      expect(values[dir === 'asc' ? values.length - 1 : 0]).toBeNull();
    }
  });

  it('keeps to the selected attributes and offers paging for other lists too', async () => {
    const { client } = await makeUser(d.current);
    const { project } = await projectWith(client, ['x1', 'x2', 'x3', 'x4']);
    const items = [];
    for await (const c of client.api.collections.listAll({
      filters: [['owner_uuid', '=', project]],
      select: ['name'],
      order: ['name'],
      limit: 3,
    })) {
      items.push(c);
    }
    expect(items).toEqual(
      ['x1', 'x2', 'x3', 'x4'].map((name) => ({ kind: 'svc#collection', name })),
    );
    // A two-key order cannot be a keyset: walked by offset, still every item once.
    const two: string[] = [];
    for await (const c of client.listAll('svc.collections.list', {
      filters: [['owner_uuid', '=', project]],
      order: ['name desc', 'created_at'],
      limit: 3,
    })) {
      two.push(c.name!);
    }
    expect(two).toEqual(['x4', 'x3', 'x2', 'x1']);
  });
});
