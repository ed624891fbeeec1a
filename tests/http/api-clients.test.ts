/**
 * API clients (other-resources.md §6, auth.md §7): the client a login makes for its return_to
 * origin, what the tokens of an untrusted client may do, and who may change or delete clients.
 */
import { useDeployment } from '../harness/deployment';
import { answer, forbidden } from '../harness/answers';
import { login, makeUser } from '../harness/users';

const GONE = 'https://gone.example.com';
const d = useDeployment({
  configure: (_id, c) => {
    c['Login'] = {
      Test: {
        Enable: true,
        Users: { alice: { Email: 'alice@example.com', Password: 'alice-pw' } },
      },
      TrustedClients: ['https://app.example.com', GONE],
    };
    c['Users'] = { NewUsersAreActive: true };
  },
});
const root = () => d.current.root;

describe('api_clients (other-resources.md §6, auth.md §7)', () => {
  it('gives untrusted login tokens only current on api_client_authorizations', async () => {
    const res = await login(d.current, 'alice', 'alice-pw', {
      return_to: 'https://app.example.com/cb',
    });
    expect(res.status).toBe(200);
    const client = await root().request('GET', `/svc/v1/api_clients/${res.body.api_client_uuid}`);
    expect(client.body).toMatchObject({
      url_prefix: 'https://app.example.com',
      is_trusted: false,
      name: 'https://app.example.com',
    });
    const untrusted = d.current.client(`v2/${res.body.uuid}/${res.body.api_token}`);
    const cur = await untrusted.request('GET', '/svc/v1/api_client_authorizations/current');
    expect([cur.status, cur.body.uuid]).toEqual([200, res.body.uuid]);
    const message = ["Forbidden: this API client cannot manipulate other clients' access tokens."];
    for (const [method, path] of [
      ['GET', '/svc/v1/api_client_authorizations'],
      ['POST', '/svc/v1/api_client_authorizations'],
      ['GET', `/svc/v1/api_client_authorizations/${res.body.uuid}`],
      ['DELETE', `/svc/v1/api_client_authorizations/${res.body.uuid}`],
    ] as const) {
      const r = await untrusted.request(method, path, { json: {} });
      expect([method, path, r.status, r.body.errors]).toEqual([method, path, 403, message]);
    }
    expect((await untrusted.request('GET', '/svc/v1/users/current')).status).toBe(200);

    const trust = await root().request('PUT', `/svc/v1/api_clients/${res.body.api_client_uuid}`, {
      json: { api_client: { is_trusted: true } },
    });
    expect(trust.status).toBe(200);
    const made = await untrusted.request('POST', '/svc/v1/api_client_authorizations', { json: {} });
    expect([made.status, made.body.api_client_uuid]).toEqual([200, res.body.api_client_uuid]);
  });

  it('finds the same client again for the same origin', async () => {
    const a = await login(d.current, 'alice', 'alice-pw', {
      return_to: 'https://app.example.com/a?x=1',
    });
    const b = await login(d.current, 'alice', 'alice-pw', {
      return_to: 'https://app.example.com:443/b',
    });
    expect(a.body.api_client_uuid).toBe(b.body.api_client_uuid);
  });

  it('lets only admins write api_clients, and never the built-in one', async () => {
    const u = await makeUser(d.current);
    const made = await u.client.request('POST', '/svc/v1/api_clients', {
      json: { api_client: { name: 'x' } },
    });
    expect([made.status, made.body.errors]).toEqual([403, ['Forbidden']]);
    const listed = await u.client.request('GET', '/svc/v1/api_clients');
    expect(listed.status).toBe(200);
    const builtIn = await root().request('PUT', '/svc/v1/api_clients/home1-ozdt8-000000000000000', {
      json: { api_client: { name: 'x' } },
    });
    expect([builtIn.status, builtIn.body.errors]).toEqual([403, ['Forbidden']]);
  });

  it('are changed by admins only, and deleting one deletes its tokens', async () => {
    const res = await login(d.current, 'alice', 'alice-pw', { return_to: `${GONE}/cb` });
    expect(res.status).toBe(200);
    const clientUuid = res.body.api_client_uuid as string;
    const token = `v2/${res.body.uuid}/${res.body.api_token}`;
    expect((await d.current.client(token).request('GET', '/svc/v1/users/current')).status).toBe(
      200,
    );
    const u = await makeUser(d.current);
    const update = await u.client.request('PUT', `/svc/v1/api_clients/${clientUuid}`, {
      json: { api_client: { is_trusted: true } },
    });
    expect(answer(update)).toEqual(forbidden);
    expect(answer(await u.client.request('DELETE', `/svc/v1/api_clients/${clientUuid}`))).toEqual(
      forbidden,
    );
    const del = await root().request('DELETE', `/svc/v1/api_clients/${clientUuid}`);
    expect(del.status).toBe(200);
    const record = await root().request(
      'GET',
      `/svc/v1/api_client_authorizations/${res.body.uuid}`,
    );
    const after = await d.current.client(token).request('GET', '/svc/v1/users/current');
    expect({ record: record.status, use: answer(after) }).toEqual({
      record: 404,
      use: [401, ['Not logged in']],
    });
  });
});
