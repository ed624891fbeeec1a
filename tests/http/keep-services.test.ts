import { createHash } from 'node:crypto';
import { useDeployment } from '../harness/deployment';
import { raw } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
let U: TestUser;
beforeAll(async () => {
  U = await makeUser(d.current);
});

const expectedUuid = (origin: string) =>
  `${d.current.home.id}-bi6l4-${createHash('md5').update(origin).digest('hex').slice(0, 15)}`;

describe('keep_services (storage.md §8)', () => {
  it('accessible needs no token and names this gateway as the client reached it', async () => {
    for (const token of [null, 'bogus-token-that-is-ignored-0000000000']) {
      const res = await d.current.client(token).request('GET', '/svc/v1/keep_services/accessible');
      expect(res.status).toBe(200);
      const { port } = new URL(d.current.url);
      expect(res.body).toMatchObject({
        kind: 'svc#keepServiceList',
        items_available: 1,
        offset: 0,
      });
      expect(res.body.items).toEqual([
        {
          kind: 'svc#keepService',
          etag: expect.stringMatching(/^[0-9a-f]{32}$/),
          uuid: expectedUuid(`http://127.0.0.1:${port}/`),
          owner_uuid: `${d.current.home.id}-tpzed-000000000000000`,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/),
          modified_at: expect.any(String),
          modified_by_user_uuid: null,
          service_host: '127.0.0.1',
          service_port: Number(port),
          service_ssl_flag: false,
          service_type: 'proxy',
          read_only: false,
        },
      ]);
    }
  });

  it('follows the Host the client used', async () => {
    const res = await raw(d.current.url, 'GET', '/svc/v1/keep_services/accessible', {
      headers: { host: 'blocks.example:8443' },
    });
    const item = JSON.parse(res.text).items[0];
    expect(item).toMatchObject({
      service_host: 'blocks.example',
      service_port: 8443,
      uuid: expectedUuid('http://blocks.example:8443/'),
    });
  });

  it('list: admins see the service, others an empty list; a token is needed', async () => {
    const admin = await d.current.root.request('GET', '/svc/v1/keep_services');
    expect([admin.status, admin.body.items_available, admin.body.items.length]).toEqual([
      200, 1, 1,
    ]);
    const user = await U.client.request('GET', '/svc/v1/keep_services');
    expect([user.status, user.body.items, user.body.kind]).toEqual([
      200,
      [],
      'svc#keepServiceList',
    ]);
    const none = await d.current.client(null).request('GET', '/svc/v1/keep_services');
    expect(none.status).toBe(401);
  });

  it('get answers the same record; another uuid is 404', async () => {
    const uuid = (await d.current.root.request('GET', '/svc/v1/keep_services')).body.items[0].uuid;
    const one = await U.client.request('GET', `/svc/v1/keep_services/${uuid}`);
    expect([one.status, one.body.uuid, one.body.service_type]).toEqual([200, uuid, 'proxy']);
    const other = await U.client.request(
      'GET',
      `/svc/v1/keep_services/${d.current.home.id}-bi6l4-000000000000000`,
    );
    expect([other.status, other.body.errors]).toEqual([404, ['Object not found']]);
  });

  it.each([
    ['POST', '/svc/v1/keep_services'],
    ['PUT', '/svc/v1/keep_services/zzzzz-bi6l4-000000000000000'],
    ['PATCH', '/svc/v1/keep_services/zzzzz-bi6l4-000000000000000'],
    ['DELETE', '/svc/v1/keep_services/zzzzz-bi6l4-000000000000000'],
  ])('%s %s is 405: services come from configuration', async (method, path) => {
    const res = await d.current.root.request(method, path, { json: { keep_service: {} } });
    expect([res.status, res.body.errors]).toEqual([405, ['Method not allowed']]);
  });

  it('discovery lists list, get and accessible', async () => {
    const doc = (await d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest'))
      .body;
    expect(Object.keys(doc.resources.keep_services.methods).sort()).toEqual([
      'accessible',
      'get',
      'list',
    ]);
    expect(doc.resources.keep_services.methods.accessible).toMatchObject({
      id: 'svc.keep_services.accessible',
      httpMethod: 'GET',
      path: 'keep_services/accessible',
      response: { $ref: 'KeepServiceList' },
    });
    expect(Object.keys(doc.schemas.KeepService.properties)).toEqual(
      expect.arrayContaining([
        'service_host',
        'service_port',
        'service_ssl_flag',
        'service_type',
        'read_only',
      ]),
    );
  });

  it('the public config needs no token', async () => {
    const res = await d.current.client(null).request('GET', '/svc/v1/config');
    expect(res.status).toBe(200);
    expect(res.body.Collections).toEqual({
      BlobSigning: true,
      BlobSigningTTL: 1209600,
      DefaultReplication: 2,
    });
    expect(res.body.StorageClasses).toEqual({ default: { Default: true } });
  });

  it('the public config names where each part is reached, as the client reached it (§5)', async () => {
    const res = await d.current.client(null).request('GET', '/svc/v1/config');
    const url = `${d.current.url}/`;
    const ws = `${url.replace(/^http:/, 'ws:')}websocket`;
    expect(res.body.Services).toEqual({
      Controller: { ExternalURL: url },
      Websocket: { ExternalURL: ws },
      WebDAV: { ExternalURL: url },
      WebDAVDownload: { ExternalURL: url },
      Keepproxy: { ExternalURL: '' },
      Workbench1: { ExternalURL: '' },
      Workbench2: { ExternalURL: url },
    });
  });
});
