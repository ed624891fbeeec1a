/**
 * Lists (lists-and-filters.md §1–§3; the § numbers of test names are that chapter's): the list
 * response, limit and offset, order, distinct and count.
 */
import { useDeployment } from '../harness/deployment';
import { rootObjectsIn } from '../harness/objects';

const d = useDeployment();
const root = () => d.current.root;
const { namedProject: project, create } = rootObjectsIn(d);
const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

let owner: string;
beforeAll(async () => {
  const project = await root().request('POST', '/svc/v1/groups', {
    json: { group: { name: 'list-owner', group_class: 'project' } },
  });
  owner = project.body.uuid;
  for (const name of ['b', 'a', 'C', 'é', 'd', null]) {
    const res = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { name, owner_uuid: owner } },
    });
    expect(res.status).toBe(200);
  }
});

const workflows = (query: Record<string, unknown>) =>
  root().request('GET', '/svc/v1/workflows', { query: { ...query } });

describe('list response', () => {
  it('has kind, offset, limit, items and items_available', async () => {
    const res = await workflows({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'svc#workflowList',
      offset: 0,
      limit: 100,
      items: expect.any(Array),
      items_available: 6,
    });
  });

  it('orders by modified_at desc, uuid asc by default', async () => {
    const res = await workflows({});
    const keys = res.body.items.map((i: { modified_at: string; uuid: string }) => [
      i.modified_at,
      i.uuid,
    ]);
    const sorted = [...keys].sort((a, b) =>
      a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? 1 : -1,
    );
    expect(keys).toEqual(sorted);
  });
});

describe('limit and offset', () => {
  it('pages without repeats or gaps', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 8; offset += 2) {
      const res = await workflows({ limit: 2, offset, order: ['name'] });
      expect([res.body.offset, res.body.limit, res.body.items_available]).toEqual([offset, 2, 6]);
      seen.push(...res.body.items.map((i: { uuid: string }) => i.uuid));
    }
    expect(seen.length).toBe(6);
    expect(new Set(seen).size).toBe(6);
  });

  it('answers [] past the end and computes items_available with limit 0', async () => {
    expect((await workflows({ offset: 12345 })).body.items).toEqual([]);
    const zero = await workflows({ limit: 0 });
    expect([zero.body.items, zero.body.items_available]).toEqual([[], 6]);
  });

  it('clamps limit to MaxItemsPerResponse', async () => {
    expect((await workflows({ limit: 100000 })).body.limit).toBe(1000);
  });

  it.each(['-8', '0x10', 'foo', '', '1234five'])('rejects limit and offset %p', async (v) => {
    const l = await workflows({ limit: v });
    expect([l.status, l.body.errors]).toEqual([422, ['Invalid value for limit parameter']]);
    const o = await workflows({ offset: v });
    expect([o.status, o.body.errors]).toEqual([422, ['Invalid value for offset parameter']]);
  });
});

describe('order', () => {
  it('sorts strings by code point, NULL last ascending and first descending', async () => {
    expect(names(await workflows({ order: ['name'] }))).toEqual(['C', 'a', 'b', 'd', 'é', null]);
    expect(names(await workflows({ order: 'name desc' }))).toEqual([null, 'é', 'd', 'b', 'a', 'C']);
  });

  it('accepts the own type prefix and a comma-separated string', async () => {
    expect(names(await workflows({ order: ['workflows.name asc'] }))).toEqual([
      'C',
      'a',
      'b',
      'd',
      'é',
      null,
    ]);
    expect(names(await workflows({ order: 'owner_uuid, name DESC' }))[1]).toBe('é');
  });

  it('always ends with uuid asc', async () => {
    const byOwner = await workflows({ order: ['owner_uuid'], select: ['uuid'] });
    const uuids = byOwner.body.items.map((i: { uuid: string }) => i.uuid);
    expect(uuids).toEqual([...uuids].sort());
  });

  it.each([
    ['bogus', "Invalid order attribute 'bogus'"],
    ['definition asc', null],
    ['groups.name', "Invalid order attribute 'groups.name'"],
    ['name up', "Invalid order direction 'name up'"],
  ])('%p', async (entry, message) => {
    const res = await workflows({ order: [entry] });
    if (message === null) expect(res.status).toBe(200);
    else expect([res.status, res.body.errors]).toEqual([422, [message]]);
  });

  it('refuses hash and array attributes', async () => {
    const res = await root().request('GET', '/svc/v1/collections', {
      query: { order: ['properties'] },
    });
    expect([res.status, res.body.errors]).toEqual([422, ["Invalid order attribute 'properties'"]]);
  });

  it('§3, requests-and-errors.md §11: secret attributes cannot be ordered, selected or filtered', async () => {
    for (const type of ['container_requests', 'containers']) {
      const path = `/svc/v1/${type}`;
      for (const entry of ['runtime_token', 'runtime_token desc']) {
        const res = await root().request('GET', path, { query: { order: [entry] } });
        expect([type, res.status, res.body.errors]).toEqual([
          type,
          422,
          [`Invalid order attribute '${entry}'`],
        ]);
      }
      const sel = await root().request('GET', path, {
        query: { select: ['uuid', 'runtime_token'] },
      });
      expect([type, sel.status, sel.body.errors]).toEqual([
        type,
        422,
        ["Invalid attribute 'runtime_token' in select parameter"],
      ]);
      const filter = await root().request('GET', path, {
        query: { filters: [['runtime_token', '!=', null]] },
      });
      expect([type, filter.status, filter.body.errors]).toEqual([
        type,
        422,
        ["Invalid attribute 'runtime_token' in filter"],
      ]);
    }
  });

  it('§3: orders booleans false first, and integer NULLs last ascending, first descending', async () => {
    const owner = await project('ordering-types');
    const rows: [string, boolean, number | null][] = [
      ['a', false, 1],
      ['b', true, null],
      ['c', false, 3],
      ['d', true, 2],
    ];
    for (const [name, preserve, replication] of rows) {
      await create('collections', 'collection', {
        name,
        owner_uuid: owner,
        preserve_version: preserve,
        replication_desired: replication,
      });
    }
    const names = async (order: string[]) => {
      const res = await root().request('GET', '/svc/v1/collections', {
        query: { filters: [['owner_uuid', '=', owner]], order, select: ['name'] },
      });
      expect(res.status).toBe(200);
      return res.body.items.map((i: { name: string }) => i.name).join('');
    };
    expect(await names(['preserve_version', 'name'])).toBe('acbd');
    expect(await names(['preserve_version desc', 'name'])).toBe('bdac');
    expect(await names(['replication_desired'])).toBe('adcb');
    expect(await names(['replication_desired desc'])).toBe('bcda');
  });
});

describe('distinct and count', () => {
  it('returns each distinct selection once, sorted by it', async () => {
    for (let i = 0; i < 2; i++) {
      await root().request('POST', '/svc/v1/links', {
        json: { link: { link_class: 'tagdistinct', head_uuid: owner } },
      });
    }
    const plain = await root().request('GET', '/svc/v1/links', {
      query: { select: ['link_class'] },
    });
    const distinct = await root().request('GET', '/svc/v1/links', {
      query: { select: ['link_class'], distinct: true },
    });
    const classes = distinct.body.items.map((i: { link_class: string }) => i.link_class);
    expect(classes).toEqual([...new Set(classes)].sort());
    expect(plain.body.items.length).toBeGreaterThan(distinct.body.items.length);
    expect(distinct.body.items_available).toBe(classes.length);
    expect(distinct.body.items[0]).toEqual({ kind: 'svc#link', link_class: classes[0] });
  });

  it('omits items_available with count=none and keeps the items', async () => {
    const exact = await workflows({ count: 'exact' });
    const none = await workflows({ count: 'none' });
    expect(none.body).not.toHaveProperty('items_available');
    expect(none.body.items).toEqual(exact.body.items);
  });

  it('validates count and distinct', async () => {
    const count = await workflows({ count: 'some' });
    expect([count.status, count.body.errors]).toEqual([
      422,
      ["count parameter must be 'exact' or 'none'"],
    ]);
    const distinct = await workflows({ distinct: 'maybe' });
    expect([distinct.status, distinct.body.errors]).toEqual([
      422,
      ['distinct parameter must be a boolean, true or false'],
    ]);
  });
});
