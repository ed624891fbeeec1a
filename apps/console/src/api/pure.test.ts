import { contentsOptions, DEFAULT_VIEW, likePattern } from './contents-view';
import { clusterOf, isPdh, pathOf } from './ids';
import { processStatus } from './process-status';
import { canReturnTo, loginKind } from './sign-in';
import type { Container, ContainerRequest } from './types';

describe('the console’s pure helpers', () => {
  it('opens a uuid or PDH on its own page', () => {
    expect(pathOf('zzzzz-j7d0g-0123456789abcde')).toBe('/projects/zzzzz-j7d0g-0123456789abcde');
    expect(pathOf('zzzzz-4zz18-0123456789abcde')).toBe('/collections/zzzzz-4zz18-0123456789abcde');
    expect(pathOf('zzzzz-xvhdp-0123456789abcde')).toBe('/processes/zzzzz-xvhdp-0123456789abcde');
    expect(pathOf('d41d8cd98f00b204e9800998ecf8427e+0')).toBe(
      '/collections/d41d8cd98f00b204e9800998ecf8427e+0',
    );
    expect(pathOf('genome')).toBeNull();
    expect([
      isPdh('d41d8cd98f00b204e9800998ecf8427e'),
      clusterOf('rmt02-tpzed-0123456789abcde'),
    ]).toEqual([false, 'rmt02']);
  });

  it('asks for one page, its name filter matching % and _ as themselves', () => {
    expect(likePattern('50%_a')).toBe('%50\\%\\_a%');
    const o = contentsOptions({ ...DEFAULT_VIEW, page: 3, name: 'x', kinds: ['svc#collection'] });
    expect(o).toMatchObject({
      limit: 50,
      offset: 100,
      order: ['modified_at desc'],
      filters: [
        ['name', 'ilike', '%x%'],
        ['uuid', 'is_a', ['svc#collection']],
      ],
      count: 'exact',
    });
    // only attributes a collection has: a name no listed type has would be refused
    expect(o.select).toContain('portable_data_hash');
    expect(o.select).not.toContain('group_class');
  });

  it('trusts an origin listed in Login.TrustedClients, with *. for subdomains', () => {
    expect(canReturnTo('https://a.example.com', ['https://*.example.com'])).toBe(true);
    expect(canReturnTo('https://example.com', ['https://*.example.com'])).toBe(false);
    expect(canReturnTo('http://127.0.0.1:8000', ['http://127.0.0.1:8000'])).toBe(true);
    expect(canReturnTo('http://127.0.0.1:8001', ['http://127.0.0.1:8000'])).toBe(false);
    expect(loginKind({ ClusterID: 'x', Login: { LDAP: { Enable: true } } })).toBe('password');
    expect(loginKind({ ClusterID: 'x', Login: { OpenIDConnect: { Enable: true } } })).toBe('oidc');
  });

  it('reads a process status from its request and container', () => {
    const cr = (over: Partial<ContainerRequest>) =>
      ({ state: 'Committed', priority: 1, ...over }) as ContainerRequest;
    const c = (over: Partial<Container>) =>
      ({ state: 'Running', exit_code: null, ...over }) as Container;
    expect(processStatus(cr({ state: 'Uncommitted' }), null)).toBe('Draft');
    expect(processStatus(cr({}), null)).toBe('Queued');
    expect(processStatus(cr({}), c({}))).toBe('Running');
    expect(processStatus(cr({ priority: 0 }), c({}))).toBe('Cancelling');
    expect(processStatus(cr({ state: 'Final' }), c({ state: 'Complete', exit_code: 0 }))).toBe(
      'Completed',
    );
    expect(processStatus(cr({ state: 'Final' }), c({ state: 'Complete', exit_code: 2 }))).toBe(
      'Failed',
    );
    expect(processStatus(cr({ state: 'Final' }), c({ state: 'Cancelled' }))).toBe('Cancelled');
  });
});
