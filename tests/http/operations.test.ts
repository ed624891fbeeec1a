/**
 * The operations endpoints (contract README, "Operations endpoints") and the request log:
 * `/_health/ping`, `/_health/all` and `/metrics` behind the ManagementToken, one log line per
 * request with its route template and never a secret, and a 500's line with the client's
 * error_token.
 */
import { useDeployment } from '../harness/deployment';
import { capturingLogger } from '../harness/log-capture';

const MANAGEMENT_TOKEN = 'managementTokenOfTheOperationsTest0000';

/** Every JSON line the servers of this file log. */
const { logger, lines } = capturingLogger();

const d = useDeployment({
  clusters: ['home1', 'rmt02'],
  // rmt02 keeps the default "": its operations endpoints are off.
  configure: (id, c) => {
    if (id === 'home1') c['ManagementToken'] = MANAGEMENT_TOKEN;
  },
  logger,
});

const management = (path: string, token: string | null = MANAGEMENT_TOKEN) =>
  fetch(`${d.current.url}${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});

const requestLines = () => lines.filter((l) => l['msg'] === 'request');
/** Which server wrote a request line: a core's routes are its calls from the gateway. */
const appOf = (l: Record<string, unknown>) =>
  String(l['route']).startsWith('/_call/') ? 'core' : 'gateway';

describe('operations endpoints', () => {
  it('answer 401 without the management token, and never to an API token', async () => {
    for (const path of ['/_health/ping', '/_health/all', '/metrics']) {
      for (const token of [null, 'wrongTokenWrongTokenWrongToken000', d.current.home.rootToken]) {
        const res = await management(path, token);
        expect([path, res.status, await res.json()]).toEqual([
          path,
          401,
          { errors: ['authorization required'] },
        ]);
      }
    }
  });

  it('take the management token in the header forms the API takes (Bearer, OAuth2)', async () => {
    for (const scheme of ['Bearer', 'OAuth2', 'oauth2']) {
      const res = await fetch(`${d.current.url}/_health/ping`, {
        headers: { Authorization: `${scheme} ${MANAGEMENT_TOKEN}` },
      });
      expect([scheme, res.status]).toEqual([scheme, 200]);
    }
  });

  it('/_health/ping answers OK while the gateway serves', async () => {
    const res = await management('/_health/ping');
    expect([res.status, await res.json()]).toEqual([200, { health: 'OK' }]);
  });

  it('a core of a cluster without a ManagementToken answers 404 on its operations paths', async () => {
    const core = d.current.clusters['rmt02']!.coreUrl;
    for (const path of ['/_health/ping', '/metrics']) {
      const res = await fetch(`${core}${path}`, {
        headers: { Authorization: `Bearer ${MANAGEMENT_TOKEN}` },
      });
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('/metrics counts the requests this test made, by route template and status', async () => {
    const count = async () => {
      const text = await (await management('/metrics')).text();
      const m =
        /^svc_http_requests_total\{route="\/svc\/v1\/users\/\{uuid\}",method="GET",status="200",app="gateway",cluster="home1"\} (\d+)$/m.exec(
          text,
        );
      return { text, n: m ? Number(m[1]) : 0 };
    };
    const before = await count();
    for (let i = 0; i < 3; i++) {
      const res = await d.current.root.request('GET', '/svc/v1/users/home1-tpzed-000000000000000');
      expect(res.status).toBe(200);
    }
    const after = await count();
    expect(after.n - before.n).toBe(3);
    expect(after.text).toContain('# TYPE svc_http_request_duration_seconds histogram');
    expect(after.text).toMatch(/^svc_token_cache_lookups_total\{result="hit"/m);
    expect(after.text).toMatch(/^svc_process_cpu_seconds_total/m);
  });

  it('a core reports its pool and permission refreshes in its own /metrics', async () => {
    const group = await d.current.root.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'metrics', group_class: 'role' } },
    });
    expect(group.status).toBe(200);
    const res = await fetch(`${d.current.home.coreUrl}/metrics`, {
      headers: { Authorization: `Bearer ${MANAGEMENT_TOKEN}` },
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toMatch(
      /^svc_db_pool_connections\{state="total",app="core",cluster="home1"\} \d+/m,
    );
    expect(text).toMatch(
      /^svc_permission_refresh_duration_seconds_count\{app="core",cluster="home1"\} [1-9]/m,
    );
    expect(text).toMatch(
      /^svc_http_requests_total\{route="\/_call\/svc\.groups\.create",method="POST",status="200",app="core",cluster="home1"\} [1-9]/m,
    );
  });
});

describe('request log', () => {
  it('one line per request: id, method, route template, status, duration, user, cluster; no secret', async () => {
    const requestId = 'req-operations-log-line-1';
    const uuid = 'home1-tpzed-000000000000000';
    const res = await fetch(`${d.current.url}/svc/v1/users/${uuid}?select=%5B%22uuid%22%5D`, {
      headers: { Authorization: `Bearer ${d.current.home.rootToken}`, 'X-Request-Id': requestId },
    });
    expect(res.status).toBe(200);
    const mine = requestLines().filter((l) => l['reqId'] === requestId);
    // the gateway's line and the home core's line, one each
    expect(mine.map(appOf).sort()).toEqual(['core', 'gateway']);
    const gateway = mine.find((l) => appOf(l) === 'gateway')!;
    expect(gateway).toMatchObject({
      method: 'GET',
      route: '/svc/v1/users/{uuid}',
      status: 200,
      user: uuid,
      cluster: 'home1',
    });
    expect(typeof gateway['ms']).toBe('number');
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain(d.current.home.rootToken);
    expect(everything).not.toContain(d.current.clusters['rmt02']!.rootToken);
    expect(everything).not.toContain(MANAGEMENT_TOKEN);
    expect(everything).not.toContain(uuid + '?'); // never the raw URL
  });

  it('a list answered with no items logs no line at info level (idle pollers make no noise)', async () => {
    const list = (requestId: string, filters: unknown[]) =>
      fetch(
        `${d.current.url}/svc/v1/containers?filters=${encodeURIComponent(JSON.stringify(filters))}`,
        {
          headers: {
            Authorization: `Bearer ${d.current.home.rootToken}`,
            'X-Request-Id': requestId,
          },
        },
      );
    const empty = await list('req-operations-empty-list', [['state', '=', 'Queued']]);
    expect([empty.status, ((await empty.json()) as { items: unknown[] }).items]).toEqual([200, []]);
    const users = await fetch(`${d.current.url}/svc/v1/users?limit=1`, {
      headers: {
        Authorization: `Bearer ${d.current.home.rootToken}`,
        'X-Request-Id': 'req-operations-full-list',
      },
    });
    expect(users.status).toBe(200);
    expect(((await users.json()) as { items: unknown[] }).items).toHaveLength(1);
    const of = (id: string) =>
      requestLines()
        .filter((l) => l['reqId'] === id)
        .map(appOf)
        .sort();
    expect(of('req-operations-empty-list')).toEqual([]);
    expect(of('req-operations-full-list')).toEqual(['core', 'gateway']);
  });

  it("a 500's lines carry the request id and the error_token the client saw", async () => {
    // A table gone under the core: the list fails inside PostgreSQL, an unexpected error.
    const core = d.current.running.cores.find((c) => c.clusterId === 'home1')!;
    await core.db.exec('ALTER TABLE workflows RENAME TO workflows_gone');
    try {
      const requestId = 'req-operations-failure-1';
      const res = await fetch(`${d.current.url}/svc/v1/workflows`, {
        headers: { Authorization: `Bearer ${d.current.home.rootToken}`, 'X-Request-Id': requestId },
      });
      const body = (await res.json()) as { error_token: string };
      expect(res.status).toBe(500);
      const mine = requestLines().filter((l) => l['reqId'] === requestId);
      expect(mine.map((l) => [appOf(l), l['status'], l['errorToken']]).sort()).toEqual([
        ['core', 500, body.error_token],
        ['gateway', 500, body.error_token],
      ]);
      const failure = lines.find(
        (l) => l['msg'] === 'request failed' && l['requestId'] === requestId,
      );
      expect(failure).toMatchObject({ errorToken: body.error_token });
    } finally {
      await core.db.exec('ALTER TABLE workflows_gone RENAME TO workflows');
    }
  });
});

describe('the gateway token cache (docs/adr/0003)', () => {
  it('checks a token sent without its v2/<uuid>/ prefix once, as it does its v2 form', async () => {
    const validations = () =>
      requestLines().filter((l) => l['route'] === '/_internal/tokens/validate').length;
    const made = await d.current.root.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { scopes: ['all'] } },
    });
    expect(made.status).toBe(200);
    const { uuid, api_token: secret } = made.body;
    const checks: Record<string, number> = {};
    for (const [form, token] of [
      ['bare', secret],
      ['v2', `v2/${uuid}/${secret}`],
    ]) {
      const before = validations();
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${d.current.url}/svc/v1/users/current`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
      }
      checks[form] = validations() - before;
    }
    expect(checks['bare']).toBeLessThanOrEqual(2);
    expect(checks['v2']).toBeLessThanOrEqual(2);
  });
});

describe('/_health/all', () => {
  it('lists every cluster core, and reports a stopped one (503)', async () => {
    const ok = await management('/_health/all');
    const okBody = (await ok.json()) as { health: string; checks: Record<string, unknown> };
    expect([ok.status, okBody.health, Object.keys(okBody.checks).sort()]).toEqual([
      200,
      'OK',
      ['home1', 'rmt02'],
    ]);
    expect(okBody.checks['rmt02']).toMatchObject({
      health: 'OK',
      responseTime: expect.any(Number),
    });
    await d.current.running.cores.find((c) => c.clusterId === 'rmt02')!.close();
    const down = await management('/_health/all');
    const body = (await down.json()) as { health: string; checks: Record<string, unknown> };
    expect([down.status, body.health]).toEqual([503, 'ERROR']);
    expect(body.checks['home1']).toMatchObject({ health: 'OK' });
    expect(body.checks['rmt02']).toMatchObject({
      health: 'ERROR',
      error: 'connection refused',
      responseTime: expect.any(Number),
    });
    // the gateway itself still serves
    expect((await management('/_health/ping')).status).toBe(200);
  });

  it('a core that cannot reach its database answers 503, and /_health/all says so', async () => {
    const core = d.current.running.cores.find((c) => c.clusterId === 'home1')!;
    await core.db.close();
    const ping = await fetch(`${core.url}/_health/ping`, {
      headers: { Authorization: `Bearer ${MANAGEMENT_TOKEN}` },
    });
    const pingBody = (await ping.json()) as { health: string; error: string };
    expect([ping.status, pingBody.health]).toEqual([503, 'ERROR']);
    expect(pingBody.error).toMatch(/^database: /);
    const all = await management('/_health/all');
    const body = (await all.json()) as {
      checks: Record<string, { health: string; error: string }>;
    };
    expect(all.status).toBe(503);
    expect(body.checks['home1']).toMatchObject({ health: 'ERROR', error: pingBody.error });
  });
});
