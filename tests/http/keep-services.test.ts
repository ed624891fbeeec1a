import { createHash } from 'node:crypto';
import { useDeployment } from '../harness/deployment';
import { raw } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

// blocks.example stands for a public name the gateway is reached by (Gateway.AllowedHosts).
const d = useDeployment({ gateway: { AllowedHosts: ['127.0.0.1', 'blocks.example'] } });
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

  it('discovery lists the standard methods and accessible', async () => {
    const doc = (await d.current.client(null).request('GET', '/discovery/v1/apis/svc/v1/rest'))
      .body;
    expect(Object.keys(doc.resources.keep_services.methods).sort()).toEqual([
      'accessible',
      'create',
      'delete',
      'get',
      'list',
      'update',
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

describe('stored keep services (docs/api/more-resources.md §11)', () => {
  const create = (attrs: Record<string, unknown>, client = d.current.root) =>
    client.request('POST', '/svc/v1/keep_services', { json: { keep_service: attrs } });

  it('are written by admins only, with their fields checked', async () => {
    expect([(await create({ service_host: 'x', service_port: 1 }, U.client)).status]).toEqual([
      403,
    ]);
    const bad = await create({ service_port: 70000, service_type: 'tape' });
    expect([bad.status, bad.body.errors.sort()]).toEqual([
      422,
      [
        "service_host can't be blank",
        'service_port must be an integer between 1 and 65535',
        'service_type must be one of disk, blob, proxy',
      ].sort(),
    ]);
    const derived = (await d.current.root.request('GET', '/svc/v1/keep_services')).body.items[0];
    for (const method of ['PUT', 'DELETE']) {
      const res = await d.current.root.request(method, `/svc/v1/keep_services/${derived.uuid}`, {
        json: { keep_service: { read_only: true } },
      });
      expect([method, res.status, res.body.errors]).toEqual([method, 403, ['Forbidden']]);
    }
  });

  it('replace the derived record everywhere while one exists', async () => {
    const uuid = `${d.current.home.id}-bi6l4-storedservice01`;
    const made = await create({ uuid, service_host: 'keep0.example', service_port: 25107 });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      kind: 'svc#keepService',
      uuid,
      owner_uuid: `${d.current.home.id}-tpzed-000000000000000`,
      service_ssl_flag: false,
      service_type: 'disk',
      read_only: false,
    });
    const accessible = await d.current
      .client(null)
      .request('GET', '/svc/v1/keep_services/accessible');
    expect(accessible.body.items.map((s: any) => s.uuid)).toEqual([uuid]);
    const listed = await d.current.root.request('GET', '/svc/v1/keep_services');
    expect(listed.body.items.map((s: any) => s.uuid)).toEqual([uuid]);
    expect((await U.client.request('GET', '/svc/v1/keep_services')).body.items).toEqual([]);
    const origin = `http://127.0.0.1:${new URL(d.current.url).port}/`;
    expect(
      (await d.current.root.request('GET', `/svc/v1/keep_services/${expectedUuid(origin)}`)).status,
    ).toBe(404);
    const updated = await d.current.root.request('PUT', `/svc/v1/keep_services/${uuid}`, {
      json: { keep_service: { read_only: true, service_port: 0 } },
    });
    expect([updated.status, updated.body.errors]).toEqual([
      422,
      ['service_port must be an integer between 1 and 65535'],
    ]);
    expect((await d.current.root.request('DELETE', `/svc/v1/keep_services/${uuid}`)).status).toBe(
      200,
    );
    const back = await d.current.client(null).request('GET', '/svc/v1/keep_services/accessible');
    expect(back.body.items.map((s: any) => s.uuid)).toEqual([expectedUuid(origin)]);
  });
});
