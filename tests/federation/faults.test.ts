import { useDeployment } from '../harness/deployment';
import { deadHost, hang, json, startFakeCluster, type FakeCluster } from '../harness/fake-cluster';
import { makeUser } from '../harness/users';

/**
 * Remotes that fail (federation.md §4, §6): down, hanging past the per-call timeout, answering
 * garbage, or vouching for users that are not theirs. Nothing partial is ever returned.
 */
let hangs: FakeCluster;
let junk: FakeCluster;
let liar: FakeCluster;
let down: string;

beforeAll(async () => {
  [hangs, junk, liar] = await Promise.all([
    startFakeCluster(),
    startFakeCluster(),
    startFakeCluster(),
  ]);
  hangs.handle = hang;
  down = await deadHost();
});
afterAll(async () => {
  await Promise.all([hangs, junk, liar].map((f) => f.close()));
});

const remote = (host: string) => ({ Host: host, Scheme: 'http', Proxy: true });

// The fakes start first (hooks run in order), so their addresses are known here.
const d = useDeployment({
  gateway: { RemoteTimeout: 2 },
  configure: (_id, section) => {
    section['RemoteClusters'] = {
      down1: remote(down),
      hang1: remote(hangs.host),
      junk1: remote(junk.host),
      liar1: remote(liar.host),
    };
  },
});

const errorOf = (res: { status: number; body: { errors?: string[] } }) => [
  res.status,
  res.body.errors?.[0] ?? '',
];

describe('a remote that fails', () => {
  it('down: 502 "error contacting cluster" for a forwarded call', async () => {
    const res = await d.current.root.request('GET', '/svc/v1/groups/down1-j7d0g-000000000000000');
    expect(res.status).toBe(502);
    expect(res.body.errors[0]).toMatch(/^error contacting cluster down1: /);
  });

  it('hanging: 502 once the per-call timeout (Gateway.RemoteTimeout, 2 s here) has passed', async () => {
    const started = Date.now();
    const res = await d.current.root.request('GET', '/svc/v1/groups/hang1-j7d0g-000000000000000');
    expect(res.status).toBe(502);
    expect(res.body.errors[0]).toMatch(/^error contacting cluster hang1: /);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answering garbage: its status and body come back unchanged on a forwarded call', async () => {
    junk.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('not json at all');
    };
    const res = await d.current.root.request('GET', '/svc/v1/groups/junk1-j7d0g-000000000000000');
    expect([res.status, res.text]).toEqual([200, 'not json at all']);
  });

  it('fails a whole federated list when any cluster fails, with nothing partial', async () => {
    const user = await makeUser(d.current);
    const mine = await user.client.api.collections.create({ attributes: { name: 'mine' } });
    const res = await user.client.request('GET', '/svc/v1/collections', {
      query: {
        filters: [['uuid', 'in', [mine.uuid, 'down1-4zz18-000000000000000']]],
        count: 'none',
      },
    });
    expect(res.status).toBe(502);
    expect(res.body.errors[0]).toMatch(/^error fetching from cluster down1: /);
    expect(res.body).not.toHaveProperty('items');
    junk.handle = json(200, { items: [{ uuid: 'junk1-4zz18-999999999999999' }] });
    const garbage = await user.client.request('GET', '/svc/v1/collections', {
      query: {
        filters: [['uuid', 'in', [mine.uuid, 'junk1-4zz18-000000000000000']]],
        count: 'none',
      },
    });
    expect(errorOf(garbage)).toEqual([
      502,
      'cannot make progress in federated list query: cluster "junk1" returned 1 items but none had the requested UUIDs',
    ]);
  });
});

describe('validating a token at a remote issuer', () => {
  const tokenOf = (cluster: string) => `v2/${cluster}-gj3su-000000000000123/secret${Date.now()}`;
  const call = (token: string) => d.current.client(token).request('GET', '/svc/v1/users/current');

  it('refuses the token when the issuer refuses it (401, 403, 404)', async () => {
    for (const status of [401, 403, 404]) {
      junk.handle = json(status, { errors: ['no'] });
      expect((await call(tokenOf('junk1'))).status).toBe(401);
    }
  });

  it('answers 502 when the issuer is down, hangs, fails, throttles or answers nonsense', async () => {
    for (const handler of [json(500, {}), json(429, {}), json(200, 'nonsense')]) {
      junk.handle = handler;
      expect(errorOf(await call(tokenOf('junk1')))).toEqual([
        502,
        expect.stringMatching(/^failed to validate remote token with cluster junk1: /),
      ]);
    }
    for (const cluster of ['down1', 'hang1']) {
      expect(errorOf(await call(tokenOf(cluster)))).toEqual([
        502,
        expect.stringMatching(
          new RegExp(`^failed to validate remote token with cluster ${cluster}: `),
        ),
      ]);
    }
  });

  it('lets a cluster vouch only for its own users', async () => {
    const token = tokenOf('liar1');
    const tokenUuid = token.split('/')[1];
    const userOf = (uuid: string) => ({
      uuid,
      email: 'x@liar.example',
      username: `liar${Date.now()}`,
      first_name: 'L',
      last_name: 'Iar',
      is_active: true,
    });
    const answerWith = (user: unknown) => {
      liar.handle = (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = req.url?.startsWith('/svc/v1/users/current')
          ? user
          : { uuid: tokenUuid, scopes: ['all'], expires_at: null };
        res.end(JSON.stringify(body));
      };
    };
    answerWith(userOf(d.current.home.id + '-tpzed-000000000000000'));
    expect((await call(token)).status).toBe(401);
    answerWith(userOf('liar1-tpzed-000000000000042'));
    const own = await call(token);
    expect([own.status, own.body.uuid, own.body.is_admin]).toEqual([
      200,
      'liar1-tpzed-000000000000042',
      false,
    ]);
    // The issuer was asked with the call's remote, cluster and forwarding parameters.
    const asked = liar.requests.find((r) => r.url.startsWith('/svc/v1/api_client_authorizations'));
    expect(asked?.url).toBe(
      '/svc/v1/api_client_authorizations/current?remote=home1&cluster_id=liar1&forwarded_for=home1',
    );
    expect(asked?.authorization).toBe(`Bearer ${token}`);
  });
});
