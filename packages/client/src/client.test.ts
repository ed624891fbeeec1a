import { findEndpoint } from '@svc/contract';
import { SvcClient } from './client';
import { encodeQuery } from './http';
import { planWalk } from './paging';
import { baseUrlOf, DEFAULT_RETRY, resolveSettings, retryDelayMs } from './settings';

/** Calls that must compile, and calls that must not (`pnpm typecheck` checks this file). */
async function typedUses(client: SvcClient) {
  for await (const c of client.api.collections.listAll({ filters: [['name', 'like', 'a%']] })) {
    const pdh: string = c.portable_data_hash;
    void pdh;
  }
  for await (const o of client.listAll('svc.groups.list', { order: ['name'] })) void o.group_class;
  // @ts-expect-error a misspelled attribute in a filter does not compile
  client.api.collections.listAll({ filters: [['nmae', '=', 'x']] });
  // @ts-expect-error listAll walks the offsets itself
  client.api.groups.listAll({ offset: 5 });
  // @ts-expect-error only list operations can be walked
  client.listAll('svc.groups.get', {});
  // @ts-expect-error resources without a list have no listAll
  client.api.configs.listAll();
}

describe('SvcClient', () => {
  it('reads SVC_API_TOKEN when no token is given', () => {
    process.env['SVC_API_TOKEN'] = 'from-env';
    try {
      expect(new SvcClient('http://x').token).toBe('from-env');
      expect(new SvcClient('http://x', null).token).toBeNull();
      expect(new SvcClient('http://x', 't').token).toBe('t');
    } finally {
      delete process.env['SVC_API_TOKEN'];
    }
    expect(typeof typedUses).toBe('function');
  });

  it('JSON-encodes non-string query values as generic clients do', () => {
    expect(encodeQuery({ limit: 5, select: ['uuid'], name: 'a b', skip: undefined })).toBe(
      '?limit=5&select=%5B%22uuid%22%5D&name=a+b',
    );
  });
});

describe('settings', () => {
  it('takes host[:port] as HTTPS, a URL as given, and options before the environment', () => {
    expect(baseUrlOf('svc.example.org:8443')).toBe('https://svc.example.org:8443');
    expect(baseUrlOf('http://127.0.0.1:9/')).toBe('http://127.0.0.1:9');
    // inside a container of a plain-HTTP gateway (execution.md §3.4)
    expect(
      resolveSettings({}, { SVC_API_HOST: '127.0.0.1:9', SVC_API_SCHEME: 'http' }).baseUrl,
    ).toBe('http://127.0.0.1:9');
    const env = { SVC_API_HOST: 'a.example', SVC_API_TOKEN: 'e', SVC_API_HOST_INSECURE: 'true' };
    expect(resolveSettings({}, env)).toEqual({
      baseUrl: 'https://a.example',
      token: 'e',
      insecure: true,
      retry: DEFAULT_RETRY,
    });
    expect(resolveSettings({ host: 'b', token: null, retry: false }, env)).toMatchObject({
      baseUrl: 'https://b',
      token: null,
      retry: { attempts: 1 },
    });
  });

  it('backs off exponentially with jitter, follows Retry-After, and caps every wait', () => {
    const p = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    for (let i = 0; i < 50; i++) {
      expect(retryDelayMs(p, 1)).toBeGreaterThanOrEqual(50);
      expect(retryDelayMs(p, 1)).toBeLessThanOrEqual(100);
      expect(retryDelayMs(p, 3)).toBeGreaterThanOrEqual(200);
      expect(retryDelayMs(p, 10)).toBeLessThanOrEqual(1000);
    }
    expect(retryDelayMs(p, 1, '0.5')).toBe(500);
    expect(retryDelayMs(p, 1, '120')).toBe(1000);
  });
});

describe('planWalk', () => {
  const list = findEndpoint('collections', 'list');
  it('walks by keyset where the order allows, by offset otherwise', () => {
    expect(planWalk(list, {})).toEqual({
      kind: 'key',
      key: 'modified_at',
      dir: 'desc',
      nullable: false,
      uuidDir: 'asc',
    });
    expect(planWalk(list, { order: ['uuid desc', 'name'] })).toEqual({
      kind: 'uuid',
      uuidDir: 'desc',
    });
    expect(planWalk(list, { order: 'collections.name asc' })).toMatchObject({
      kind: 'key',
      key: 'name',
      nullable: true,
    });
    expect(planWalk(list, { order: ['name', 'created_at'] }).kind).toBe('offset');
    expect(planWalk(list, { order: ['is_trashed'] }).kind).toBe('offset');
    expect(planWalk(list, { distinct: true }).kind).toBe('offset');
  });
});
