// The deployment under test, in this process: startDeployment (apps/launcher) with a config
// from validateConfig (packages/config) — one cluster on the bench database, core and gateway
// on 127.0.0.1:0, test login enabled, a random 40-character SystemRootToken — and an HTTP
// client (undici, one keep-alive connection, sequential requests) for the gateway.
import { dist, pino, randomAlnum, undici } from './common.mjs';
import { onCleanup } from './database.mjs';

export async function startBenchDeployment({ clusterId, databaseUrl }) {
  const { validateConfig } = dist('packages/config/dist/index.js');
  const { startDeployment } = dist('apps/launcher/dist/index.js');
  const rootToken = randomAlnum(40);
  const config = validateConfig({
    Gateway: { Listen: '127.0.0.1:0', HomeCluster: clusterId },
    Clusters: {
      [clusterId]: {
        SystemRootToken: rootToken,
        Database: { URL: databaseUrl },
        Core: { Listen: '127.0.0.1:0' },
        Login: { Test: { Enable: true } },
      },
    },
  });
  // SVC_BENCH_LOG=info shows what the servers log (silent otherwise).
  const logger = pino({ level: process.env.SVC_BENCH_LOG ?? 'silent' });
  const running = await startDeployment(config, { core: logger, gateway: logger });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await running.close();
  };
  onCleanup(close);
  return {
    url: running.gateway.url,
    rootToken,
    config,
    cluster: config.Clusters[clusterId],
    /** The core's own Db (its pool), for reading its sessions' prepared-statement counters. */
    coreDb: running.cores[0].db,
    close,
  };
}

/** Sequential requests over one keep-alive connection; every answer read in full. */
export class Http {
  constructor(baseUrl) {
    this.client = new undici.Client(baseUrl, { pipelining: 1, keepAliveTimeout: 120_000 });
    onCleanup(() => this.client.close());
  }

  /**
   * `query` values that are not strings are sent as JSON (filters, order). Returns status,
   * the parsed body, and the elapsed milliseconds (request sent → last byte read).
   */
  async request(method, path, { token, query, json } = {}) {
    const qs = query
      ? '?' +
        Object.entries(query)
          .filter(([, v]) => v !== undefined)
          .map(
            ([k, v]) =>
              `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`,
          )
          .join('&')
      : '';
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const t0 = performance.now();
    const res = await this.client.request({
      method,
      path: path + qs,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.body.text();
    const ms = performance.now() - t0;
    let body;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.statusCode, body, bytes: text.length, ms };
  }

  /** Like request, but throws unless the status is `expect` (200 by default). */
  async ok(method, path, opts = {}, expect = 200) {
    const r = await this.request(method, path, opts);
    if (r.status !== expect) {
      throw new Error(
        `${method} ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 500)}`,
      );
    }
    return r;
  }
}

/** A new active user made by the root token, and a token of theirs (`v2/<uuid>/<secret>`). */
export async function benchUser(http, rootToken, attrs) {
  const user = await http.ok('POST', '/svc/v1/users', {
    token: rootToken,
    json: { user: { is_active: true, ...attrs } },
  });
  const tok = await http.ok('POST', '/svc/v1/api_client_authorizations', {
    token: rootToken,
    json: { api_client_authorization: { owner_uuid: user.body.uuid } },
  });
  return { uuid: user.body.uuid, token: `v2/${tok.body.uuid}/${tok.body.api_token}` };
}
