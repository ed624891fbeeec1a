import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { request } from 'undici';
import { validateConfig } from '@svc/config';
import { anonymousIdentity, rootIdentity } from '@svc/contract';
import { NotLoggedInError } from '@svc/errors';
import { TokenCache } from '../auth/token-cache';
import type { Federation, TypedCall } from '../federation/federation';
import type { GatewayDeps } from '../gateway-deps';
import { apiHandler } from './api-handler';

/**
 * The router layer alone, with a fake federation layer behind it: an HTTP request becomes one
 * typed call, checked in the contract's order, whatever answers it.
 */
const config = validateConfig({
  Clusters: {
    home1: {
      SystemRootToken: 'r'.repeat(40),
      Database: { URL: 'postgres://unused' },
      Login: { Test: { Enable: true } },
    },
  },
});
const calls: TypedCall[] = [];
const fakeFederation = {
  route: () => ({ kind: 'core', cluster: 'home1' }),
  admit: async (p: { token: string | null; endpoint: { public?: boolean } }) => {
    if (p.endpoint.public) return { identity: anonymousIdentity('home1'), caller: { token: null } };
    if (p.token !== 'good') throw new NotLoggedInError();
    return { identity: rootIdentity('home1'), caller: { token: p.token } };
  },
  execute: async (_route: unknown, call: TypedCall) => {
    calls.push(call);
    return { kind: 'json', status: 200, body: { answered: call.endpointId } };
  },
} as unknown as Federation;

let server: Server;
let base: string;
beforeAll(async () => {
  const deps = {
    config,
    home: config.Clusters['home1']!,
    federation: fakeFederation,
    auth: { cache: new TokenCache() },
    log: pino({ level: 'silent' }),
  } as unknown as GatewayDeps;
  server = createServer(apiHandler(deps));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const send = async (method: string, path: string, token?: string, body?: string) => {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body,
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
};

describe('the router with a fake federation layer', () => {
  it('turns a request into one typed call and answers what the layer answers', async () => {
    calls.length = 0;
    const res = await send(
      'POST',
      '/svc/v1/collections?alt=json',
      'good',
      'filters=%5B%5B%22name%22%2C%22%3D%22%2C%22x%22%5D%5D&limit=5&_method=GET',
    );
    expect([res.status, res.body]).toEqual([200, { answered: 'svc.collections.list' }]);
    expect(calls.map((c) => [c.endpointId, c.options])).toEqual([
      ['svc.collections.list', { filters: [['name', '=', 'x']], limit: 5 }],
    ]);
  });

  it('checks route, token, scope and parameters in that order, before the layer runs', async () => {
    calls.length = 0;
    expect((await send('GET', '/svc/v1/nothing')).status).toBe(404);
    expect((await send('PATCH', '/svc/v1/groups')).status).toBe(405);
    expect((await send('GET', '/svc/v1/groups?limit=x')).status).toBe(401);
    const bad = await send('GET', '/svc/v1/groups?limit=x', 'good');
    expect([bad.status, bad.body['errors']]).toEqual([422, ['Invalid value for limit parameter']]);
    expect(calls).toEqual([]);
    expect((await send('GET', '/svc/v1/config')).status).toBe(200);
  });
});
