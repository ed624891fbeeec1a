import { resourceByType } from '@svc/contract';
import { useDeployment } from '../harness/deployment';
import { samples } from '../harness/samples';

const d = useDeployment();
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}000Z$/;

describe.each(samples('home1'))('$type', (sample) => {
  const spec = resourceByType(sample.type)!;
  const path = `/svc/v1/${sample.type}`;

  it('creates, gets, updates, lists and deletes', async () => {
    const root = d.current.root;
    const created = await root.request('POST', path, { json: { [spec.singular]: sample.create } });
    expect(created.status).toBe(200);
    const obj = created.body;
    expect(obj.kind).toBe(spec.kind);
    expect(obj.uuid).toMatch(new RegExp(`^home1-${spec.infix}-[0-9a-z]{15}$`));
    expect(obj.created_at).toMatch(TIMESTAMP);
    expect(obj.modified_at).toMatch(TIMESTAMP);
    expect(typeof obj.etag).toBe('string');
    for (const [k, v] of Object.entries(sample.create)) {
      if (k !== 'manifest_text') expect(obj[k]).toEqual(v);
    }

    const got = await root.request('GET', `${path}/${obj.uuid}`);
    expect(got.status).toBe(200);
    expect(got.body.uuid).toBe(obj.uuid);
    expect(got.body.etag).toBe(obj.etag);

    const updated = await root.request('PUT', `${path}/${obj.uuid}`, {
      json: { [spec.singular]: sample.change },
    });
    expect(updated.status).toBe(200);
    for (const [k, v] of Object.entries(sample.change)) expect(updated.body[k]).toEqual(v);
    expect(updated.body.etag).not.toBe(obj.etag);
    expect(updated.body.modified_at > obj.modified_at).toBe(true);
    expect(updated.body.created_at).toBe(obj.created_at);

    const listed = await root.request('GET', path, {
      query: { filters: [['uuid', '=', obj.uuid]], select: ['uuid'] },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.kind).toBe(`${spec.kind}List`);
    expect(listed.body.items).toEqual([{ kind: spec.kind, uuid: obj.uuid }]);

    const deleted = await root.request('DELETE', `${path}/${obj.uuid}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.uuid).toBe(obj.uuid);
    const after = await root.request('GET', `${path}/${obj.uuid}`);
    expect(after.status).toBe(404);
    expect(after.body.errors).toEqual(['Object not found']);
    if (sample.trashes) {
      expect(deleted.body.is_trashed).toBe(true);
      const trashed = await root.request('GET', `${path}/${obj.uuid}`, {
        query: { include_trash: 'true' },
      });
      expect(trashed.status).toBe(200);
    }
  });

  it('renders every attribute of the schema, secrets never', async () => {
    const created = await d.current.root.request('POST', path, { json: sample.create });
    expect(created.status).toBe(200);
    const expected = Object.entries(spec.attributes)
      .filter(([, a]) => !a.secret)
      .map(([name]) => name);
    expect(Object.keys(created.body).sort()).toEqual(expected.sort());
  });

  it('gives 404 for a uuid of the wrong type or an unknown one', async () => {
    const wrongInfix =
      sample.type === 'links' ? 'home1-4zz18-000000000000000' : 'home1-o0j2j-000000000000000';
    for (const uuid of [wrongInfix, `home1-${spec.infix}-zzzzzzzzzzzzzzz`, 'not-a-uuid']) {
      const res = await d.current.root.request('GET', `${path}/${uuid}`);
      expect([res.status, res.body.errors]).toEqual([404, ['Object not found']]);
    }
  });
});
