import { findEndpoint } from '@svc/contract';
import { planRoute } from './route';

const topology = { home: 'home1', cores: new Set(['home1', 'sib02']) };
const route = (resource: string, name: string, options: Record<string, unknown> = {}) =>
  planRoute(findEndpoint(resource, name), options, topology);

describe('planRoute: where a call goes (federation.md §2)', () => {
  it('sends calls on one object to the cluster of its uuid, ignoring cluster_id', () => {
    expect(
      route('groups', 'get', { uuid: 'sib02-j7d0g-012345678901234', cluster_id: 'home1' }),
    ).toEqual({
      kind: 'core',
      cluster: 'sib02',
    });
    expect(route('collections', 'delete', { uuid: 'zz404-4zz18-012345678901234' })).toEqual({
      kind: 'no-proxy',
      cluster: 'zz404',
    });
  });

  it('sends creates, lists and current to cluster_id when given (not ""), else home', () => {
    expect(route('groups', 'create', { cluster_id: 'sib02' })).toEqual({
      kind: 'core',
      cluster: 'sib02',
    });
    expect(route('groups', 'create', { cluster_id: '' })).toEqual({
      kind: 'core',
      cluster: 'home1',
    });
    expect(route('links', 'list')).toEqual({ kind: 'core', cluster: 'home1' });
    expect(route('users', 'current', { cluster_id: 'zz404' })).toEqual({
      kind: 'no-proxy',
      cluster: 'zz404',
    });
  });

  it('answers a PDH (no cluster in it) at home', () => {
    expect(route('collections', 'get', { uuid: 'd41d8cd98f00b204e9800998ecf8427e+0' })).toEqual({
      kind: 'core',
      cluster: 'home1',
    });
  });
});
