import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from './api-error';
import { SvcClient } from './browser';

/** A fetch that records each request and answers from `reply`. */
function recordingFetch(reply: (url: string, init: RequestInit) => Response) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fn = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return reply(url, init);
  }) as unknown as typeof fetch;
  return { fn, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('the browser build of the client (fetch, no undici)', () => {
  it('sends typed calls through fetch with the token, and parses the answer', async () => {
    const { fn, seen } = recordingFetch(() => json(200, { uuid: 'zzzzz-tpzed-000000000000000' }));
    const svc = new SvcClient({ host: 'http://127.0.0.1:9', token: 'v2/a/b', fetch: fn });
    const me = await svc.api.users.current();
    expect(me.uuid).toBe('zzzzz-tpzed-000000000000000');
    expect(seen[0]!.url).toBe('http://127.0.0.1:9/svc/v1/users/current');
    expect(seen[0]!.init.method).toBe('GET');
    expect((seen[0]!.init.headers as Record<string, string>)['authorization']).toBe(
      'Bearer v2/a/b',
    );
  });

  it('throws the contract error as an ApiError, with the request id', async () => {
    const { fn } = recordingFetch(() =>
      json(404, { errors: ['Object not found'], error_token: '1+abc' }, { 'x-request-id': 'r1' }),
    );
    const svc = new SvcClient({ host: 'http://h', fetch: fn, retry: false });
    const err = await svc.api.groups.get({ uuid: 'zzzzz-j7d0g-000000000000001' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.errors, err.requestId]).toEqual([404, ['Object not found'], 'r1']);
  });

  it('keeps the transport when the token changes, and sends JSON bodies', async () => {
    const { fn, seen } = recordingFetch(() => json(200, { uuid: 'x' }));
    const anon = new SvcClient({ host: 'http://h', fetch: fn });
    await anon
      .withToken('t2')
      .api.groups.create({ attributes: { name: 'P', group_class: 'project' } });
    const sent = seen[0]!;
    expect((sent.init.headers as Record<string, string>)['authorization']).toBe('Bearer t2');
    expect(JSON.parse(String(sent.init.body))).toMatchObject({ group: { name: 'P' } });
  });

  it('imports nothing of Node.js or undici, directly or through its modules', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(__dirname, `${file}.ts`), 'utf8');
      for (const m of text.matchAll(/^(?:import|export)(?!\s+type)[^'"]*from '([^']+)'/gm)) {
        const spec = m[1]!;
        expect([file, spec]).not.toEqual([file, expect.stringMatching(/^(node:|undici)/)]);
        if (spec.startsWith('./')) visit(spec.slice(2));
      }
    };
    visit('browser');
    expect(seen.has('api-client')).toBe(true);
  });
});
