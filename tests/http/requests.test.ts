/**
 * Request bodies and select (requests-and-errors.md §3, §4, §11; the § numbers of test names
 * are that chapter's): the body forms, attribute types and nulls, server-set keys, uuid rules,
 * references, timestamps, and what select changes.
 */
import { useDeployment } from '../harness/deployment';
import { rootObjectsIn } from '../harness/objects';
import { makeUser } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;
const { newGroup, namedProject: project, create } = rootObjectsIn(d);

describe('create and update bodies', () => {
  it('accepts the wrapped, camelCase, bare and form-encoded forms', async () => {
    const wrapped = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { name: 'a' } },
    });
    const camel = await root().request('POST', '/svc/v1/container_requests', {
      json: {
        containerRequest: {
          name: 'b',
          command: ['x'],
          container_image: 'i',
          cwd: '/',
          output_path: '/o',
          mounts: { '/o': { kind: 'tmp' } },
        },
      },
    });
    const bare = await root().request('POST', '/svc/v1/groups', {
      json: { name: 'bare', group_class: 'project', ensure_unique_name: true, select: ['name'] },
    });
    const form = await root().request('POST', '/svc/v1/workflows', {
      form: { workflow: JSON.stringify({ name: 'formed' }) },
    });
    const query = await root().request('POST', '/svc/v1/workflows', {
      query: { workflow: JSON.stringify({ name: 'queried' }) },
    });
    expect([wrapped.status, camel.status, bare.status, form.status, query.status]).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect(wrapped.body.name).toBe('a');
    expect(camel.body.name).toBe('b');
    expect(bare.body).toEqual({ kind: 'svc#group', name: 'bare' });
    expect(form.body.name).toBe('formed');
    expect(query.body.name).toBe('queried');
  });

  it('treats text/plain, application/javascript and typeless bodies as JSON', async () => {
    for (const contentType of ['text/plain', 'application/javascript', undefined]) {
      const res = await root().request('POST', '/svc/v1/workflows', {
        raw: { body: JSON.stringify({ workflow: { name: `t-${contentType}` } }), contentType },
      });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe(`t-${contentType}`);
    }
  });

  it('creates with defaults only when there are no attributes', async () => {
    const res = await root().request('POST', '/svc/v1/workflows');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: null, description: null, definition: null });
    const links = await root().request('POST', '/svc/v1/collections', { json: {} });
    expect(links.body).toMatchObject({
      name: null,
      properties: {},
      manifest_text: '',
      portable_data_hash: 'd41d8cd98f00b204e9800998ecf8427e+0',
      storage_classes_desired: ['default'],
      storage_classes_confirmed: [],
      replication_desired: null,
      version: 1,
      preserve_version: false,
      is_trashed: false,
    });
    expect(links.body.current_version_uuid).toBe(links.body.uuid);
  });

  it('answers 422 for an unusable wrapper', async () => {
    for (const workflow of ['not json', '[1]', 7]) {
      const res = await root().request('POST', '/svc/v1/workflows', { json: { workflow } });
      expect([res.status, res.body.errors]).toEqual([
        422,
        ['No workflow hash provided with request'],
      ]);
    }
  });

  it('lists every failed rule in one 422', async () => {
    const res = await root().request('POST', '/svc/v1/collections', {
      json: {
        collection: {
          bogus: 1,
          name: 5,
          properties: 'x',
          trash_at: 'soon',
          storage_classes_desired: [1],
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.sort()).toEqual(
      [
        "Unknown attribute 'bogus' for collection",
        'name has an invalid type: string required',
        'properties has an invalid type: hash required',
        'trash_at has an invalid type: datetime required',
        'storage_classes_desired must be an array of strings',
      ].sort(),
    );
  });

  it('accepts null only where nullable', async () => {
    const ok = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { name: null } },
    });
    expect(ok.status).toBe(200);
    const bad = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { created_at: 1, owner_uuid: null } },
    });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      ['owner_uuid has an invalid type: string required'],
    ]);
  });

  it('ignores the server-set keys silently', async () => {
    const res = await root().request('POST', '/svc/v1/groups', {
      json: {
        group: {
          group_class: 'project',
          kind: 'x',
          etag: 'x',
          href: 'x',
          created_at: '2000-01-01',
          modified_at: '2000-01-01',
          modified_by_user_uuid: 'x',
          modified_by_client_uuid: 'x',
          can_write: false,
          can_manage: false,
          writable_by: [],
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.created_at.startsWith('2000')).toBe(false);
    expect(res.body.kind).toBe('svc#group');
  });

  it('replaces each named attribute whole and keeps the others', async () => {
    const g = await newGroup({ name: 'keep', description: 'd', properties: { a: 1, b: { c: 2 } } });
    const res = await root().request('PATCH', `/svc/v1/groups/${g.uuid}`, {
      json: { group: { properties: { b: { d: 3 } } } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'keep', description: 'd', properties: { b: { d: 3 } } });
  });

  it('changes nothing on an empty update, and still answers the object', async () => {
    const g = await newGroup();
    const res = await root().request('PUT', `/svc/v1/groups/${g.uuid}`, { json: {} });
    expect(res.status).toBe(200);
    expect([res.body.etag, res.body.modified_at]).toEqual([g.etag, g.modified_at]);
  });

  it('applies the uuid rules', async () => {
    const g = await newGroup();
    const change = await root().request('PUT', `/svc/v1/groups/${g.uuid}`, {
      json: { group: { uuid: 'home1-j7d0g-aaaaaaaaaaaaaaa' } },
    });
    expect([change.status, change.body.errors]).toEqual([422, ['uuid change not permitted']]);
    const same = await root().request('PUT', `/svc/v1/groups/${g.uuid}`, {
      json: { group: { uuid: g.uuid } },
    });
    expect(same.status).toBe(200);
    const chosen = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { uuid: 'home1-7fd4e-chosenbyadmin00' } },
    });
    expect([chosen.status, chosen.body.uuid]).toEqual([200, 'home1-7fd4e-chosenbyadmin00']);
    const invalid = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { uuid: 'home1-j7d0g-aaaaaaaaaaaaaaa' } },
    });
    expect([invalid.status, invalid.body.errors]).toEqual([
      422,
      ["uuid 'home1-j7d0g-aaaaaaaaaaaaaaa' is not a valid svc#workflow uuid"],
    ]);
  });

  it('checks references to other objects', async () => {
    const owner = await root().request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'tag', owner_uuid: 'home1-tpzed-nosuchuser00000' } },
    });
    expect([owner.status, owner.body.errors]).toEqual([
      422,
      ["owner_uuid 'home1-tpzed-nosuchuser00000' not found"],
    ]);
    const ends = await root().request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'tag',
          head_uuid: 'home1-4zz18-nosuchthing0000',
          tail_uuid: 'home1-tpzed-nosuchuser00000',
        },
      },
    });
    expect(ends.status).toBe(422);
    expect(ends.body.errors.sort()).toEqual([
      "head_uuid 'home1-4zz18-nosuchthing0000' not found",
      "tail_uuid 'home1-tpzed-nosuchuser00000' not found",
    ]);
  });

  it('requires required attributes', async () => {
    const res = await root().request('POST', '/svc/v1/container_requests', {
      json: { container_request: { cwd: '' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.sort()).toEqual([
      "command can't be blank",
      "container_image can't be blank",
      "cwd can't be blank",
      "output_path can't be blank",
    ]);
  });

  it('accepts timestamps in every ISO-8601 form and renders 9 digits', async () => {
    const cases: [string, string][] = [
      ['2030-05-01', '2030-05-01T00:00:00.000000000Z'],
      ['2030-05-01T12:30', '2030-05-01T12:30:00.000000000Z'],
      ['2030-05-01T12:30:15.123456789+02:00', '2030-05-01T10:30:15.123456000Z'],
    ];
    for (const [input, rendered] of cases) {
      const res = await root().request('POST', '/svc/v1/api_client_authorizations', {
        json: { api_client_authorization: { expires_at: input } },
      });
      expect([res.status, res.body.expires_at]).toEqual([200, rendered]);
    }
  });

  it('§4: only admins may choose the uuid of a new object', async () => {
    const u = await makeUser(d.current);
    const uuid = 'home1-7fd4e-chosenbyuser000';
    const res = await u.client.request('POST', '/svc/v1/workflows', {
      json: { workflow: { uuid, name: 'mine' } },
    });
    expect([res.status, res.body.errors]).toEqual([422, ['uuid assignment not permitted']]);
    expect((await root().request('GET', `/svc/v1/workflows/${uuid}`)).status).toBe(404);
  });

  it('§3, §4: attribute values in a body are never converted', async () => {
    const res = await root().request('POST', '/svc/v1/collections', {
      json: {
        collection: {
          replication_desired: '2',
          preserve_version: 'true',
          storage_classes_desired: 'default',
        },
      },
    });
    expect(res.status).toBe(422);
    expect([...res.body.errors].sort()).toEqual([
      'preserve_version has an invalid type: boolean required',
      'replication_desired has an invalid type: integer required',
      'storage_classes_desired has an invalid type: array required',
    ]);
    const wrapped = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { name: 'null', description: '1' } },
    });
    expect([wrapped.status, wrapped.body.name, wrapped.body.description]).toEqual([
      200,
      'null',
      '1',
    ]);
    const bare = await root().request('POST', '/svc/v1/workflows', {
      json: { name: 'null', description: 'true' },
    });
    expect([bare.status, bare.body.name, bare.body.description]).toEqual([200, 'null', 'true']);
  });
});

describe('select', () => {
  it('works on create, get, update, delete and list, keeping kind', async () => {
    const sel = { select: ['uuid', 'name'] };
    const created = await root().request('POST', '/svc/v1/workflows', {
      json: { workflow: { name: 's' } },
      query: sel,
    });
    expect(created.body).toEqual({ kind: 'svc#workflow', uuid: created.body.uuid, name: 's' });
    const uuid = created.body.uuid;
    for (const [method, path] of [
      ['GET', `/svc/v1/workflows/${uuid}`],
      ['PUT', `/svc/v1/workflows/${uuid}`],
      ['DELETE', `/svc/v1/workflows/${uuid}`],
    ] as const) {
      const res = await root().request(method, path, { query: sel });
      expect([method, Object.keys(res.body).sort()]).toEqual([method, ['kind', 'name', 'uuid']]);
    }
    const list = await root().request('GET', '/svc/v1/links', {
      query: { select: ['uuid', 'link_class'] },
    });
    expect(list.body.items.length).toBeGreaterThan(0);
    for (const item of list.body.items)
      expect(Object.keys(item).sort()).toEqual(['kind', 'link_class', 'uuid']);
  });

  it('rejects unknown, secret and empty selections', async () => {
    const cases: [unknown, string][] = [
      [['bogus'], "Invalid attribute 'bogus' in select parameter"],
      [['secret_mounts'], "Invalid attribute 'secret_mounts' in select parameter"],
      [[], 'Attribute selection list cannot be empty'],
      ['uuid', 'Could not parse "select" param as an array'],
    ];
    for (const [select, message] of cases) {
      const res = await root().request('GET', '/svc/v1/container_requests', { query: { select } });
      expect([res.status, res.body.errors]).toEqual([422, [message]]);
    }
  });

  it('leaves manifest_text out of collection lists unless selected', async () => {
    await root().request('POST', '/svc/v1/collections', { json: { collection: { name: 'm' } } });
    const plain = await root().request('GET', '/svc/v1/collections');
    expect(plain.body.items[0]).not.toHaveProperty('manifest_text');
    expect(plain.body.items[0]).not.toHaveProperty('unsigned_manifest_text');
    const selected = await root().request('GET', '/svc/v1/collections', {
      query: { select: ['manifest_text'] },
    });
    expect(selected.body.items[0]).toEqual({ kind: 'svc#collection', manifest_text: '' });
  });

  it('§11: select changes neither which objects match nor their order', async () => {
    const owner = await project('select-order');
    for (const name of ['s2', 's4', 's1', 's3', 's5']) {
      await create('workflows', 'workflow', { name, owner_uuid: owner });
    }
    const query = {
      filters: [
        ['owner_uuid', '=', owner],
        ['name', '!=', 's3'],
      ],
      order: ['name desc'],
      limit: 3,
      offset: 1,
    };
    const full = await root().request('GET', '/svc/v1/workflows', { query });
    const selected = await root().request('GET', '/svc/v1/workflows', {
      query: { ...query, select: ['uuid'] },
    });
    expect(full.body.items.map((i: { name: string }) => i.name)).toEqual(['s4', 's2', 's1']);
    expect(selected.body.items).toEqual(
      full.body.items.map((i: { uuid: string }) => ({ kind: 'svc#workflow', uuid: i.uuid })),
    );
    expect(selected.body.items_available).toBe(4);
  });
});
