/**
 * A deployment with non-default settings, as clients see them (discovery.md §2, §4, §5;
 * lists-and-filters.md §1, §2): the discovery document publishes its URL and limits, and its
 * methods' scopes under that URL; the public config shows its values and no secret; lists apply
 * its API.MaxItemsPerResponse.
 */
import { useDeployment } from '../harness/deployment';
import { rootObjectsIn } from '../harness/objects';
import { makeUser } from '../harness/users';

const EXTERNAL_URL = 'https://svc.example.com';
const ROOT_URL = `${EXTERNAL_URL}/`;
const DOWNLOAD_URL = 'https://download.svc.example.com/';
const MAX_ITEMS = 7;
const MAX_REQUEST_SIZE = 65536;
const ANONYMOUS_TOKEN = 'anonymousTokenForTheConfiguration00000';
const TEST_PASSWORD = 'configured-password-9f3k';

const d = useDeployment({
  configure: (_id, c) => {
    c['ExternalURL'] = EXTERNAL_URL;
    c['Services'] = { WebDAVDownload: { ExternalURL: DOWNLOAD_URL } };
    c['API'] = { MaxItemsPerResponse: MAX_ITEMS, MaxRequestSize: MAX_REQUEST_SIZE };
    c['Collections'] = { DefaultReplication: 3, BlobSigningTTL: 7200 };
    c['RemoteClusters'] = { rmt02: { Host: 'rmt02.example' } };
    c['Users'] = { AnonymousUserToken: ANONYMOUS_TOKEN };
    c['Login'] = {
      Test: {
        Enable: true,
        Users: { carol: { Email: 'carol@example.com', Password: TEST_PASSWORD } },
      },
    };
  },
});
const root = () => d.current.root;
const { namedProject: project, create } = rootObjectsIn(d);

const fetchDoc = () => d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest');

describe('what discovery and the public config publish of the configuration (discovery.md)', () => {
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
      Services: {
        Controller: { ExternalURL: ROOT_URL },
        Websocket: { ExternalURL: 'wss://svc.example.com/websocket' },
        WebDAV: { ExternalURL: ROOT_URL },
        WebDAVDownload: { ExternalURL: DOWNLOAD_URL },
        Keepproxy: { ExternalURL: '' },
        Workbench1: { ExternalURL: '' },
        Workbench2: { ExternalURL: ROOT_URL },
      },
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

describe('lists within the configured limit (lists-and-filters.md)', () => {
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

  it('clamps the limit of group contents alike (groups.md §3)', async () => {
    const owner = await project('max-items contents');
    for (let i = 0; i < MAX_ITEMS + 2; i++) {
      await create('workflows', 'workflow', { name: `c${i}`, owner_uuid: owner });
    }
    for (const query of [{}, { limit: MAX_ITEMS + 1 }]) {
      const res = await root().request('GET', '/svc/v1/groups/contents', {
        query: { uuid: owner, ...query },
      });
      expect([res.status, res.body.limit, res.body.items.length, res.body.items_available]).toEqual(
        [200, MAX_ITEMS, MAX_ITEMS, MAX_ITEMS + 2],
      );
    }
  });
});
