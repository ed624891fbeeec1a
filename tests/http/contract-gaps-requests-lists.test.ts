/**
 * Rules of requests-and-errors.md, lists-and-filters.md and discovery.md that no other test
 * pins down: the order of checks, parameter sources, conversions, secret attributes in lists,
 * ordering of non-string types, configured limits, and the discovery document's parameter and
 * method tables.
 */
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const EXTERNAL_URL = 'https://svc.example.com';
const ROOT_URL = `${EXTERNAL_URL}/`;
const MAX_ITEMS = 7;
const MAX_REQUEST_SIZE = 65536;
const ANONYMOUS_TOKEN = 'anonymousTokenForContractGaps000000000';
const TEST_PASSWORD = 'contract-gaps-password-9f3k';

const d = useDeployment({
  configure: (_id, c) => {
    c['ExternalURL'] = EXTERNAL_URL;
    c['API'] = { MaxItemsPerResponse: MAX_ITEMS, MaxRequestSize: MAX_REQUEST_SIZE };
    c['Collections'] = { DefaultReplication: 3, BlobSigningTTL: 7200 };
    c['RemoteClusters'] = { rmt02: { Host: 'rmt02.example' } };
    c['Users'] = { AnonymousUserToken: ANONYMOUS_TOKEN };
    c['Login'] = {
      Test: { Enable: true, Users: { gap: { Email: 'gap@example.com', Password: TEST_PASSWORD } } },
    };
  },
});
const root = () => d.current.root;
const MISSING_GROUP = 'home1-j7d0g-nosuchgroup0000';
const JSON_UTF8 = 'application/json; charset=utf-8';

async function project(name: string, by: TestUser | null = null): Promise<string> {
  const client = by ? by.client : root();
  const res = await client.request('POST', '/svc/v1/groups', {
    json: { group: { name, group_class: 'project' } },
  });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
  return res.body.uuid as string;
}

async function create(type: string, singular: string, attrs: Record<string, unknown>) {
  const res = await root().request('POST', `/svc/v1/${type}`, { json: { [singular]: attrs } });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
  return res.body as Record<string, unknown> & { uuid: string };
}

const fetchDoc = () => d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest');

describe('requests-and-errors.md', () => {
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

  it('§2: checks route, body size, token and scopes before parameters and lookup', async () => {
    const anon = d.current.client(null);
    const wrongMethod = await anon.request('PATCH', '/svc/v1/collections', {
      json: { description: 'x'.repeat(MAX_REQUEST_SIZE) },
    });
    expect([wrongMethod.status, wrongMethod.body.errors]).toEqual([405, ['Method not allowed']]);
    const tooLarge = await anon.request('POST', '/svc/v1/workflows', {
      json: { workflow: { description: 'x'.repeat(MAX_REQUEST_SIZE) } },
    });
    expect([tooLarge.status, tooLarge.body.errors]).toEqual([413, ['Request body too large']]);
    for (const [path, query] of [
      ['/svc/v1/groups', { limit: 'foo' }],
      ['/svc/v1/groups', { filters: [['bogus', '=', 1]] }],
      [`/svc/v1/groups/${MISSING_GROUP}`, {}],
    ] as const) {
      const res = await anon.request('GET', path, { query });
      expect([path, res.status, res.body.errors]).toEqual([path, 401, ['Not logged in']]);
    }
    const u = await makeUser(d.current, {}, { scopes: ['GET /svc/v1/groups'] });
    for (const [path, query] of [
      ['/svc/v1/collections', { limit: 'foo' }],
      ['/svc/v1/collections/home1-4zz18-nosuchthing0000', {}],
    ] as const) {
      const res = await u.client.request('GET', path, { query });
      expect([path, res.status, res.body.errors]).toEqual([path, 403, ['Forbidden']]);
    }
    expect((await u.client.request('GET', '/svc/v1/groups')).status).toBe(200);
  });

  it('§2: checks parameters before lookup, and permission before validation', async () => {
    const missing = await root().request('GET', `/svc/v1/groups/${MISSING_GROUP}`, {
      query: { select: ['bogus'] },
    });
    expect([missing.status, missing.body.errors]).toEqual([
      422,
      ["Invalid attribute 'bogus' in select parameter"],
    ]);
    const owner = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const p = await project('read-only for the reader', owner);
    const link = await root().request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: reader.uuid, head_uuid: p },
      },
    });
    expect(link.status).toBe(200);
    const invalidBody = await reader.client.request('PUT', `/svc/v1/groups/${p}`, {
      json: { group: { bogus: 1, name: 5 } },
    });
    expect([invalidBody.status, invalidBody.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${p}`],
    ]);
    const invalidParam = await reader.client.request('PUT', `/svc/v1/groups/${p}`, {
      query: { select: ['bogus'] },
      json: { group: { name: 'x' } },
    });
    expect([invalidParam.status, invalidParam.body.errors]).toEqual([
      422,
      ["Invalid attribute 'bogus' in select parameter"],
    ]);
  });

  it('§3: the path wins over the body and the query, a form body over the query', async () => {
    const a = await create('workflows', 'workflow', { name: 'path-a' });
    const b = await create('workflows', 'workflow', { name: 'path-b' });
    const viaBody = await root().request('POST', `/svc/v1/workflows/${a.uuid}`, {
      json: { _method: 'GET', uuid: b.uuid },
    });
    expect([viaBody.status, viaBody.body.uuid]).toEqual([200, a.uuid]);
    const viaQuery = await root().request('GET', `/svc/v1/workflows/${a.uuid}`, {
      query: { uuid: b.uuid },
    });
    expect([viaQuery.status, viaQuery.body.uuid]).toEqual([200, a.uuid]);
    const formOverQuery = await root().request('POST', '/svc/v1/workflows', {
      query: { _method: 'GET', limit: '5', select: '["name"]' },
      form: { limit: '1' },
    });
    expect([formOverQuery.status, formOverQuery.body.limit]).toEqual([200, 1]);
    expect(Object.keys(formOverQuery.body.items[0]).sort()).toEqual(['kind', 'name']);
  });

  it('§3: converts string values at the top level of a JSON body', async () => {
    const owner = await project('top-level strings');
    for (const name of ['t1', 't2', 't3']) {
      await create('workflows', 'workflow', { name, owner_uuid: owner });
    }
    const res = await root().request('POST', '/svc/v1/workflows', {
      json: {
        _method: 'GET',
        filters: JSON.stringify([['owner_uuid', '=', owner]]),
        limit: '2',
        offset: '1',
        count: 'none',
        select: '["uuid"]',
      },
    });
    expect([res.status, res.body.limit, res.body.offset, res.body.items.length]).toEqual([
      200, 2, 1, 2,
    ]);
    expect(res.body).not.toHaveProperty('items_available');
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['kind', 'uuid']);
  });

  it('§3: validates every boolean parameter, include_old_versions and bypass_federation too', async () => {
    const message = (name: string) => [`${name} parameter must be a boolean, true or false`];
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (const name of ['distinct', 'include_trash', 'include_old_versions', 'bypass_federation']) {
      for (const value of ['maybe', 'yes', '2', 'true', '1', 'false', '0', '']) {
        const res = await root().request('GET', '/svc/v1/collections', {
          query: { limit: 0, [name]: value },
        });
        const valid = ['true', '1', 'false', '0', ''].includes(value);
        got.push([name, value, res.status, res.body.errors]);
        want.push([name, value, valid ? 200 : 422, valid ? undefined : message(name)]);
      }
    }
    for (const name of ['ensure_unique_name', 'async']) {
      const res = await root().request('POST', '/svc/v1/groups', {
        query: { [name]: 'maybe' },
        json: { group: { group_class: 'project' } },
      });
      got.push([name, 'maybe', res.status, res.body.errors]);
      want.push([name, 'maybe', 422, message(name)]);
    }
    expect(got).toEqual(want);
  });

  it('§2, §6: OPTIONS on the discovery path is 200, empty, with CORS, without a token', async () => {
    for (const token of [null, 'not-a-valid-token']) {
      const res = await d.current
        .client(token)
        .request('OPTIONS', '/discovery/v1/apis/svc/v1/rest');
      expect([res.status, res.text]).toEqual([200, '']);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, OPTIONS, PUT, POST, PATCH, DELETE',
        'access-control-allow-headers':
          'Authorization, Content-Type, X-Http-Method-Override, X-Request-Id',
        'access-control-max-age': '86400',
      });
    }
  });

  it('§5: answers every success with application/json; charset=utf-8', async () => {
    const created = await root().request('POST', '/svc/v1/workflows', { json: {} });
    const path = `/svc/v1/workflows/${created.body.uuid}`;
    const answers = [
      created,
      await root().request('GET', path),
      await root().request('PUT', path, { json: { workflow: { name: 'ct' } } }),
      await root().request('GET', '/svc/v1/workflows'),
      await root().request('GET', '/svc/v1/users/current'),
      await root().request('GET', '/svc/v1/config'),
      await root().request('DELETE', path),
    ];
    expect(answers.map((a) => [a.status, a.headers['content-type']])).toEqual(
      answers.map(() => [200, JSON_UTF8]),
    );
    const doc = await fetchDoc();
    expect(doc.headers['content-type']).toMatch(/^application\/json/);
  });

  it('§6: makes a request id when there is none or it is not 1-1024 printable ASCII', async () => {
    const REQ_ID = /^req-[0-9a-z]{20}$/;
    const none1 = await root().request('GET', '/svc/v1/users/current');
    const none2 = await root().request('GET', '/svc/v1/users/current');
    expect(none1.headers['x-request-id']).toMatch(REQ_ID);
    expect(none2.headers['x-request-id']).toMatch(REQ_ID);
    expect(none1.headers['x-request-id']).not.toBe(none2.headers['x-request-id']);
    const longest = `~${'x'.repeat(1022)}!`;
    const kept = await root().request('GET', '/svc/v1/users/current', {
      headers: { 'x-request-id': longest },
    });
    expect(kept.headers['x-request-id']).toBe(longest);
    const onError = await root().request('GET', `/svc/v1/groups/${MISSING_GROUP}`, {
      headers: { 'x-request-id': 'error id 7' },
    });
    expect([onError.status, onError.headers['x-request-id']]).toEqual([404, 'error id 7']);
    const tab = await root().request('GET', '/svc/v1/users/current', {
      headers: { 'x-request-id': 'a\tb' },
    });
    expect(tab.headers['x-request-id']).toMatch(REQ_ID);
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

describe('lists-and-filters.md', () => {
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

  it('§1, §2: clamps the default limit to API.MaxItemsPerResponse and pages within it', async () => {
    const owner = await project('max-items');
    for (let i = 0; i < MAX_ITEMS + 2; i++) {
      await create('workflows', 'workflow', { name: `m${i}`, owner_uuid: owner });
    }
    const list = (query: Record<string, unknown>) =>
      root().request('GET', '/svc/v1/workflows', {
        query: { filters: [['owner_uuid', '=', owner]], order: ['name'], ...query },
      });
    const shape = (res: Awaited<ReturnType<typeof list>>) => [
      res.status,
      res.body.limit,
      res.body.offset,
      res.body.items.length,
      res.body.items_available,
    ];
    expect(shape(await list({}))).toEqual([200, MAX_ITEMS, 0, MAX_ITEMS, MAX_ITEMS + 2]);
    expect(shape(await list({ limit: MAX_ITEMS + 1 }))).toEqual([
      200,
      MAX_ITEMS,
      0,
      MAX_ITEMS,
      MAX_ITEMS + 2,
    ]);
    expect(shape(await list({ offset: MAX_ITEMS }))).toEqual([
      200,
      MAX_ITEMS,
      MAX_ITEMS,
      2,
      MAX_ITEMS + 2,
    ]);
    expect(shape(await list({ limit: 3, offset: 1 }))).toEqual([200, 3, 1, 3, MAX_ITEMS + 2]);
  });
});

describe('discovery.md', () => {
  it('§2: publishes the configured URL and limits, not built-in defaults', async () => {
    const res = await d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest', {
      headers: { host: 'elsewhere.example:8080' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      rootUrl: ROOT_URL,
      baseUrl: `${ROOT_URL}svc/v1/`,
      uuidPrefix: 'home1',
      maxItemsPerResponse: MAX_ITEMS,
      maxRequestSize: MAX_REQUEST_SIZE,
      defaultCollectionReplication: 3,
      blobSignatureTtl: 7200,
      defaultTrashLifetime: 7200,
      remoteHosts: { rmt02: 'rmt02.example' },
    });
    expect(Object.keys(res.body.auth.oauth2.scopes).sort()).toEqual([
      `${ROOT_URL}auth/svc`,
      `${ROOT_URL}auth/svc.readonly`,
    ]);
  });

  it('§4: describes the parameters of the standard methods as the contract lists them', async () => {
    const doc = (await fetchDoc()).body;
    type Param = {
      type: string;
      location: string;
      required?: boolean;
      default?: string;
      items?: unknown;
    };
    type Method = { path: string; parameters: Record<string, Param>; scopes: string[] };
    const LIST_SET: Record<string, [string, string?]> = {
      limit: ['integer', '100'],
      offset: ['integer', '0'],
      filters: ['array'],
      order: ['array'],
      select: ['array'],
      distinct: ['boolean', 'false'],
      count: ['string', 'exact'],
      where: ['object'],
      cluster_id: ['string'],
      bypass_federation: ['boolean', 'false'],
    };
    const TRASH: [string, string?] = ['boolean', 'false'];
    const shape = (params: Record<string, Param>) =>
      Object.fromEntries(
        Object.entries(params).map(([k, v]) => [
          k,
          v.default === undefined ? [v.type] : [v.type, v.default],
        ]),
      );
    const types = [
      'users',
      'groups',
      'collections',
      'container_requests',
      'containers',
      'links',
      'workflows',
      'api_client_authorizations',
      'api_clients',
      'logs',
    ];
    for (const t of types) {
      const m = doc.resources[t].methods as Record<string, Method>;
      const trashable = t === 'groups' || t === 'collections';
      const list = {
        ...LIST_SET,
        ...(trashable || t === 'container_requests' ? { include_trash: TRASH } : {}),
        ...(t === 'collections' ? { include_old_versions: TRASH } : {}),
      };
      const async_ = t === 'groups' ? { async: TRASH } : {};
      expect([t, 'list', shape(m['list']!.parameters)]).toEqual([t, 'list', list]);
      expect([t, 'get', shape(m['get']!.parameters)]).toEqual([
        t,
        'get',
        { uuid: ['string'], select: ['array'], ...(trashable ? { include_trash: TRASH } : {}) },
      ]);
      expect([t, 'create', shape(m['create']!.parameters)]).toEqual([
        t,
        'create',
        {
          select: ['array'],
          ensure_unique_name: ['boolean', 'false'],
          cluster_id: ['string'],
          ...async_,
        },
      ]);
      expect([t, 'update', shape(m['update']!.parameters)]).toEqual([
        t,
        'update',
        { uuid: ['string'], select: ['array'], ...async_ },
      ]);
      expect([t, 'delete', shape(m['delete']!.parameters)]).toEqual([
        t,
        'delete',
        { uuid: ['string'], select: ['array'] },
      ]);
    }
    for (const [t, resource] of Object.entries(doc.resources) as [
      string,
      { methods: Record<string, Method> },
    ][]) {
      for (const [name, m] of Object.entries(resource.methods)) {
        const id = `${t}.${name}`;
        expect([id, m.scopes]).toEqual([id, [`${ROOT_URL}auth/svc`]]);
        for (const [p, spec] of Object.entries(m.parameters)) {
          const inPath = m.path.includes(`{${p}}`);
          expect([id, p, spec.location, spec.required ?? false, 'repeated' in spec]).toEqual([
            id,
            p,
            inPath ? 'path' : 'query',
            inPath ? true : (spec.required ?? false),
            false,
          ]);
        }
      }
    }
  });

  // The document lists what the server serves (foundation issue, item 9): group contents and
  // sharing, trash/untrash endpoints and container locking arrive with their own issues.
  it('§4: describes every other operation the server serves, once each', async () => {
    const doc = (await fetchDoc()).body;
    const expected: [string, string, string, string | null][] = [
      ['users.current', 'GET', 'users/current', 'User'],
      ['users.system', 'GET', 'users/system', 'User'],
      ['users.authenticate', 'POST', 'users/authenticate', 'ApiClientAuthorization'],
      [
        'api_client_authorizations.current',
        'GET',
        'api_client_authorizations/current',
        'ApiClientAuthorization',
      ],
      ['configs.get', 'GET', 'config', null],
    ];
    const problems: string[] = [];
    for (const [id, httpMethod, path, response] of expected) {
      const [resource, name] = id.split('.') as [string, string];
      const m = doc.resources[resource]?.methods?.[name];
      if (!m) {
        problems.push(`${id}: missing`);
        continue;
      }
      const got = {
        id: m.id,
        httpMethod: m.httpMethod,
        path: m.path,
        response: m.response?.$ref ?? null,
        parameterOrder: m.parameterOrder,
      };
      const want = {
        id: `svc.${id}`,
        httpMethod,
        path,
        response,
        parameterOrder: path.includes('{uuid}') ? ['uuid'] : [],
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        problems.push(`${id}: ${JSON.stringify(got)}`);
    }
    const contents = doc.resources['groups']?.methods?.['contents'];
    if (contents) {
      for (const p of ['uuid', 'include', 'recursive', 'exclude_home_project', 'include_trash']) {
        if (!(p in contents.parameters)) problems.push(`groups.contents: no parameter ${p}`);
      }
    }
    const untrash = doc.resources['groups']?.methods?.['untrash'];
    if (untrash && !('ensure_unique_name' in untrash.parameters))
      problems.push('groups.untrash: no parameter ensure_unique_name');
    for (const [t, resource] of Object.entries(doc.resources) as [
      string,
      { methods: Record<string, { httpMethod: string; path: string }> },
    ][]) {
      for (const [name, m] of Object.entries(resource.methods)) {
        if (m.httpMethod === 'PATCH') problems.push(`${t}.${name}: an alternative form is listed`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('§5: any valid token reads the public config, with the configured values and no secret', async () => {
    const u = await makeUser(d.current);
    const res = await u.client.request('GET', '/svc/v1/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ClusterID: 'home1',
      API: {
        MaxItemsPerResponse: MAX_ITEMS,
        MaxRequestSize: MAX_REQUEST_SIZE,
        FreezeProjectRequiresDescription: false,
        FreezeProjectRequiresProperties: [],
        UnfreezeProjectRequiresAdmin: false,
        AsyncPermissionsUpdateInterval: 20,
      },
      Collections: { BlobSigning: true, BlobSigningTTL: 7200, DefaultReplication: 3 },
      Containers: { MaxRetryAttempts: 3, MaxDispatchAttempts: 10 },
      Login: {
        OpenIDConnect: { Enable: false, AcceptAccessToken: false },
        LDAP: { Enable: false },
        PAM: { Enable: false },
        Test: { Enable: true },
        TrustedClients: [],
      },
      RemoteClusters: { rmt02: { Host: 'rmt02.example', Proxy: true, Scheme: 'https' } },
      StorageClasses: { default: { Default: true } },
    });
    for (const secret of [ANONYMOUS_TOKEN, TEST_PASSWORD, d.current.home.rootToken]) {
      expect(res.text).not.toContain(secret);
    }
    expect(res.body).not.toHaveProperty('Database');
    expect(res.body).not.toHaveProperty('SystemRootToken');
    // Public (discovery.md §5): no token needed, and a bad token is ignored rather than refused.
    for (const token of [null, 'v2/home1-gj3su-000000000000000/not-a-valid-secret']) {
      const anon = await d.current.client(token).request('GET', '/svc/v1/config');
      expect([anon.status, anon.body]).toEqual([200, res.body]);
    }
  });
});
