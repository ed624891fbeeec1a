/**
 * The discovery document (discovery.md; the § numbers of test names are that chapter's) of a
 * deployment with default settings. configuration.test.ts covers what it publishes of a
 * configured deployment.
 */
import { RESOURCES, schemaName } from '@svc/contract';
import { useDeployment } from '../harness/deployment';

const d = useDeployment({
  configure: (_id, c) =>
    (c['RemoteClusters'] = {
      rmt02: { Host: 'rmt02.example:443' },
      off03: { Host: 'x', Proxy: false },
    }),
});
const fetchDoc = () => d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest');

interface Method {
  id: string;
  path: string;
  httpMethod: string;
  parameters: Record<string, { type: string; location: string; items?: unknown }>;
  parameterOrder: string[];
  request?: { properties: Record<string, { $ref: string }> };
  response?: { $ref: string };
}

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

function arraysWithoutItems(value: unknown, path = '', out: string[] = []): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (v['type'] === 'array' && !('items' in v)) out.push(path);
    for (const [k, child] of Object.entries(v)) arraysWithoutItems(child, `${path}.${k}`, out);
  }
  return out;
}

describe('discovery document', () => {
  it('is served without a token, ignores a bad one, and answers POST alike', async () => {
    const plain = await fetchDoc();
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=3600');
    const withBadToken = await d.current
      .client('nonsense')
      .request('GET', '/discovery/v1/apis/svc/v1/rest');
    const post = await d.current.client(null).request('POST', '/discovery/v1/apis/svc/v1/rest');
    const otherName = await d.current
      .client(null)
      .request('GET', '/discovery/v1/apis/arvados/v1/rest');
    expect([withBadToken.body, post.body, otherName.body]).toEqual([
      plain.body,
      plain.body,
      plain.body,
    ]);
    const v2 = await d.current.client(null).request('GET', '/discovery/v1/apis/svc/v2/rest');
    expect([v2.status, v2.body.errors]).toEqual([404, ['API endpoint not found']]);
    const badName = await d.current
      .client(null)
      .request('GET', '/discovery/v1/apis/Bad-Name/v1/rest');
    expect(badName.status).toBe(404);
  });

  it('has the top-level fields', async () => {
    const doc = (await fetchDoc()).body;
    const root = `${d.current.url}/`;
    expect(doc).toMatchObject({
      kind: 'discovery#restDescription',
      discoveryVersion: 'v1',
      id: 'svc:v1',
      name: 'svc',
      version: 'v1',
      revision: '20261128',
      title: 'svc API',
      protocol: 'rest',
      rootUrl: root,
      servicePath: 'svc/v1/',
      basePath: '/svc/v1/',
      baseUrl: `${root}svc/v1/`,
      batchPath: 'batch',
      uuidPrefix: 'home1',
      maxItemsPerResponse: 1000,
      maxRequestSize: 134217728,
      defaultCollectionReplication: 2,
      blobSignatureTtl: 1209600,
      defaultTrashLifetime: 1209600,
      remoteHosts: { rmt02: 'rmt02.example:443' },
      remoteHostsViaDNS: false,
      websocketUrl: '',
      parameters: {
        alt: { type: 'string', location: 'query', default: 'json', enum: ['json'] },
        fields: { type: 'string', location: 'query' },
        key: { type: 'string', location: 'query' },
        oauth_token: { type: 'string', location: 'query' },
      },
      auth: {
        oauth2: {
          scopes: {
            [`${root}auth/svc`]: { description: 'View and manage objects' },
            [`${root}auth/svc.readonly`]: { description: 'View objects' },
          },
        },
      },
    });
  });

  it('describes every resource with a schema and a list schema from the contract', async () => {
    const doc = (await fetchDoc()).body;
    for (const r of RESOURCES) {
      const name = schemaName(r);
      const schema = doc.schemas[name];
      expect(schema).toMatchObject({ id: name, type: 'object', uuidPrefix: r.infix });
      const expected = Object.entries(r.attributes)
        .filter(([, a]) => !a.secret)
        .map(([n]) => n);
      expect(Object.keys(schema.properties).sort()).toEqual(expected.sort());
      expect(doc.schemas[`${name}List`].properties.items).toEqual({
        type: 'array',
        items: { $ref: name },
      });
      expect(doc.schemas[`${name}List`].properties.kind.default).toBe(`${r.kind}List`);
      expect(Object.keys(doc.resources[r.type].methods)).toEqual(
        expect.arrayContaining(
          // keep_services are read-only: list, get and accessible (storage.md §8).
          r.type === 'keep_services'
            ? ['list', 'get', 'accessible']
            : ['list', 'get', 'create', 'update', 'delete'],
        ),
      );
    }
    expect(doc.schemas.ContainerRequest.properties.secret_mounts).toBeUndefined();
    expect(doc.schemas.Collection.properties.modified_at).toEqual({
      type: 'string',
      format: 'date-time',
      description: 'Set on every change',
    });
    expect(doc.schemas.Collection.properties.replication_desired.type).toBe('integer');
    expect(doc.schemas.Collection.properties.replication_desired.format).toBe('int64');
  });

  it('gives every method a response key, {} where there is no $ref (§4)', async () => {
    const doc = (await fetchDoc()).body;
    const missing: string[] = [];
    for (const r of Object.values<any>(doc.resources)) {
      for (const m of Object.values<any>(r.methods)) {
        if (!('response' in m)) missing.push(m.id);
      }
    }
    expect(missing).toEqual([]);
    expect(doc.resources.configs.methods.get.response).toEqual({});
  });

  it('resolves every $ref and gives every array items', async () => {
    const doc = (await fetchDoc()).body;
    for (const ref of refsIn(doc.resources)) expect(doc.schemas).toHaveProperty([ref]);
    for (const ref of refsIn(doc.schemas)) expect(doc.schemas).toHaveProperty([ref]);
    expect(arraysWithoutItems(doc)).toEqual([]);
  });

  it('describes the standard methods as the contract says', async () => {
    const methods = (await fetchDoc()).body.resources.groups.methods as Record<string, Method>;
    expect(methods['list']).toMatchObject({
      id: 'svc.groups.list',
      path: 'groups',
      httpMethod: 'GET',
      parameterOrder: [],
      response: { $ref: 'GroupList' },
    });
    expect(Object.keys(methods['list']!.parameters).sort()).toEqual(
      [
        'limit',
        'offset',
        'filters',
        'order',
        'select',
        'distinct',
        'count',
        'where',
        'cluster_id',
        'bypass_federation',
        'include_trash',
      ].sort(),
    );
    expect(methods['list']!.parameters['limit']).toMatchObject({
      type: 'integer',
      location: 'query',
      default: '100',
    });
    expect(methods['get']).toMatchObject({
      path: 'groups/{uuid}',
      parameterOrder: ['uuid'],
      response: { $ref: 'Group' },
    });
    expect(methods['get']!.parameters['uuid']).toMatchObject({
      type: 'string',
      location: 'path',
      required: true,
    });
    expect(methods['create']).toMatchObject({
      httpMethod: 'POST',
      request: { required: true, properties: { group: { $ref: 'Group' } } },
    });
    expect(Object.keys(methods['create']!.parameters).sort()).toEqual([
      'async',
      'cluster_id',
      'ensure_unique_name',
      'select',
    ]);
    expect(methods['update']).toMatchObject({ httpMethod: 'PUT', path: 'groups/{uuid}' });
    expect(methods['delete']).toMatchObject({ httpMethod: 'DELETE', path: 'groups/{uuid}' });
  });

  it('lists only what the server serves, and the server serves all it lists', async () => {
    const doc = (await fetchDoc()).body;
    for (const resource of Object.values(doc.resources) as { methods: Record<string, Method> }[]) {
      for (const m of Object.values(resource.methods)) {
        const path = `/svc/v1/${m.path.replace('{uuid}', 'home1-zzzzz-zzzzzzzzzzzzzzz')}`;
        const res = await d.current.root.request(m.httpMethod, path, { json: {} });
        expect([
          m.id,
          res.status === 404 && res.body.errors[0] === 'API endpoint not found',
        ]).toEqual([m.id, false]);
        expect([m.id, res.status]).not.toEqual([m.id, 405]);
      }
    }
  });

  it.each([
    ['groups', 'Group'],
    ['collections', 'Collection'],
  ])('§4: %s.trash takes uuid, %s.untrash uuid and ensure_unique_name', async (type, schema) => {
    const { trash, untrash } = (await fetchDoc()).body.resources[type].methods;
    for (const [m, name] of [
      [trash, 'trash'],
      [untrash, 'untrash'],
    ]) {
      expect([m.id, m.httpMethod, m.path, m.response, m.parameterOrder]).toEqual([
        `svc.${type}.${name}`,
        'POST',
        `${type}/{uuid}/${name}`,
        { $ref: schema },
        ['uuid'],
      ]);
    }
    expect(Object.keys(trash.parameters)).toEqual(['uuid']);
    expect(Object.keys(untrash.parameters).sort()).toEqual(['ensure_unique_name', 'uuid']);
  });

  // The document lists what the server serves (foundation issue, item 9).
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
      ['groups.contents', 'GET', 'groups/contents', 'ObjectList'],
      ['groups.shared', 'GET', 'groups/shared', 'GroupList'],
      ['groups.trash', 'POST', 'groups/{uuid}/trash', 'Group'],
      ['groups.untrash', 'POST', 'groups/{uuid}/untrash', 'Group'],
      ['collections.trash', 'POST', 'collections/{uuid}/trash', 'Collection'],
      ['collections.untrash', 'POST', 'collections/{uuid}/untrash', 'Collection'],
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
    const listSet = Object.keys(doc.resources['groups'].methods['list'].parameters);
    const contentsParams = Object.keys(contents?.parameters ?? {});
    const sharedParams = Object.keys(
      doc.resources['groups']?.methods?.['shared']?.parameters ?? {},
    );
    for (const p of [...listSet, 'include_old_versions']) {
      if (!contentsParams.includes(p)) problems.push(`groups.contents: no parameter ${p}`);
    }
    for (const p of [...listSet, 'include', 'include_trash']) {
      if (!sharedParams.includes(p)) problems.push(`groups.shared: no parameter ${p}`);
    }
    if (contents?.parameters?.uuid?.required || contents?.parameters?.uuid?.location !== 'query')
      problems.push('groups.contents: uuid must be an optional query parameter');
    for (const type of ['groups', 'collections']) {
      const untrash = doc.resources[type]?.methods?.['untrash'];
      if (untrash && !('ensure_unique_name' in untrash.parameters))
        problems.push(`${type}.untrash: no parameter ensure_unique_name`);
    }
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
});
