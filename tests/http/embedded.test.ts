import { resourceByType } from '@svc/contract';
import { useDeployment } from '../harness/deployment';
import { samples } from '../harness/samples';

/** The same SQL and migrations on the embedded PostgreSQL (PGlite, PostgreSQL 18). */
const d = useDeployment({ database: 'pglite', clusters: ['home1', 'rmt02'] });

it('runs migrations and the common methods of every resource on PGlite', async () => {
  for (const sample of samples('home1')) {
    const spec = resourceByType(sample.type)!;
    const path = `/svc/v1/${sample.type}`;
    const created = await d.current.root.request('POST', path, {
      json: { [spec.singular]: sample.create },
    });
    expect([sample.type, created.status]).toEqual([sample.type, 200]);
    const uuid = created.body.uuid as string;
    const updated = await d.current.root.request('PATCH', `${path}/${uuid}`, {
      json: { [spec.singular]: sample.change },
    });
    expect([sample.type, updated.status]).toEqual([sample.type, 200]);
    const listed = await d.current.root.request('GET', path, {
      query: { order: ['modified_at desc'], limit: 1, select: ['uuid'] },
    });
    expect(listed.body.items[0].uuid).toBe(uuid);
    const deleted = await d.current.root.request('DELETE', `${path}/${uuid}`);
    expect([sample.type, deleted.status]).toEqual([sample.type, 200]);
  }
});

it('orders strings by code point and keeps microseconds', async () => {
  for (const name of ['b', 'B', 'é'])
    await d.current.root.request('POST', '/svc/v1/workflows', { json: { workflow: { name } } });
  const res = await d.current.root.request('GET', '/svc/v1/workflows', {
    query: { order: ['name'], select: ['name', 'modified_at'] },
  });
  expect(res.body.items.map((i: { name: string }) => i.name)).toEqual(['B', 'b', 'é']);
  expect(res.body.items[0].modified_at).toMatch(/\.\d{6}000Z$/);
});

it('routes by cluster between two embedded clusters', async () => {
  // A root token is root on its own cluster only: work on rmt02 with rmt02's.
  const rmtRoot = d.current.rootOf('rmt02');
  const remote = await rmtRoot.request('POST', '/svc/v1/links', {
    query: { cluster_id: 'rmt02' },
    json: { link: { link_class: 'tag', head_uuid: 'rmt02-tpzed-000000000000000' } },
  });
  expect(remote.status).toBe(200);
  const got = await rmtRoot.request('GET', `/svc/v1/links/${remote.body.uuid}`);
  expect([got.status, got.body.head_uuid]).toEqual([200, 'rmt02-tpzed-000000000000000']);
});

it('lists group contents with counts kept by the counter triggers on PGlite', async () => {
  const root = d.current.root;
  const P = (
    await root.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'embedded P', group_class: 'project' } },
    })
  ).body.uuid as string;
  const sub = await root.request('POST', '/svc/v1/groups', {
    json: { group: { name: 'embedded sub', group_class: 'project', owner_uuid: P } },
  });
  const c = await root.request('POST', '/svc/v1/collections', {
    json: { collection: { name: 'embedded c', owner_uuid: sub.body.uuid } },
  });
  const flat = await root.request('GET', `/svc/v1/groups/${P}/contents`);
  expect([flat.status, flat.body.items_available]).toEqual([200, 1]);
  const rec = await root.request('GET', '/svc/v1/groups/contents', {
    query: { uuid: P, recursive: true },
  });
  expect(rec.body.items.map((i: { uuid: string }) => i.uuid)).toEqual([sub.body.uuid, c.body.uuid]);
  expect(rec.body.items_available).toBe(2);
});
